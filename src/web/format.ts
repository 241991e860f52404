import { TOKEN_PRICE_US_CENTS } from '../accounts/billing.ts';

/** The price of `tokens` in US dollars, as shown to people: `0.04 USD`, `11.56 USD`. */
export function usd(tokens: number): string {
  return `${((tokens * TOKEN_PRICE_US_CENTS) / 100).toFixed(2)} USD`;
}

/** A whole number with thousands separators, the way the pages write counts. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** `n thing` or `n things`. */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/**
 * An ISO time as `21 Nov 2025, 14:03 UTC`. Always UTC: the page is rendered on the server, which
 * cannot know the reader's zone, and a labelled UTC time is never misread.
 */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}
