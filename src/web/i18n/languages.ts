/** The languages the website is written in, in the order its language switcher lists them. */
export const SITE_LANGUAGES = ['rw', 'fr', 'en'] as const;

export type SiteLanguage = (typeof SITE_LANGUAGES)[number];

/** Whatever no choice, cookie or browser preference names: English. */
export const DEFAULT_LANGUAGE: SiteLanguage = 'en';

export function isSiteLanguage(value: unknown): value is SiteLanguage {
  return typeof value === 'string' && (SITE_LANGUAGES as readonly string[]).includes(value);
}

/**
 * The locales `Intl` formats each language's numbers, dates and plurals in, best first. English
 * is written the British way (`en-GB`: "21 Nov 2025, 14:03"). Kinyarwanda names Dutch after
 * itself on purpose: CLDR has Kinyarwanda's number symbols, dates and names but no plural rules,
 * so `Intl.PluralRules('rw')` falls back to the process's default locale (whatever it is), and
 * browsers such as Chromium ship no `rw` data at all. Dutch's CLDR data has exactly `rw`'s
 * number conventions (`1.234,5`, `USD 11,56`) and a one/other rule (one: exactly 1), which is
 * how Kinyarwanda counts split between a noun's singular and plural class ("ijambo 1",
 * "amagambo 2"); `test/web/i18n/locales.test.ts` holds both facts.
 */
export const FORMAT_LOCALES: Readonly<Record<SiteLanguage, readonly string[]>> = {
  rw: ['rw', 'nl'],
  fr: ['fr'],
  en: ['en-GB'],
};

// Longer than any header a browser sends: a bound on the work one request can cause.
const MAX_ACCEPT_LANGUAGE = 1024;

/**
 * The site language a browser asks for in `Accept-Language` (RFC 9110, 12.5.4): the
 * highest-weighted range whose primary subtag is one of ours (`fr-CA` is `fr`; `*` is English),
 * the first listed among equals; undefined when it names none of ours or cannot be read.
 */
export function negotiateLanguage(header: string | undefined): SiteLanguage | undefined {
  if (header === undefined || header.length > MAX_ACCEPT_LANGUAGE) return undefined;
  let best: { language: SiteLanguage; weight: number } | undefined;
  for (const part of header.split(',')) {
    const [range = '', ...params] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    const language = primary === '*' ? DEFAULT_LANGUAGE : primary;
    if (!isSiteLanguage(language)) continue;
    const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    if (weight > 0 && (best === undefined || weight > best.weight)) best = { language, weight };
  }
  return best?.language;
}
