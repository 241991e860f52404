import { html, type SafeHtml } from './html.ts';

/** Where a customer writes about buying tokens: the configured contact, or the operator of this service. */
export function contact(supportEmail: string | null): SafeHtml {
  return supportEmail
    ? html`Questions and payment details: <a href="mailto:${supportEmail}">${supportEmail}</a>.`
    : html`Ask the operator of this service for payment details.`;
}
