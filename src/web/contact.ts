import { html, type SafeHtml } from './html.ts';
import type { Translator } from './i18n/translator.ts';

/** Where a customer writes about buying tokens: the configured contact, or the operator of this service. */
export function contact(t: Translator, supportEmail: string | null): SafeHtml {
  return supportEmail
    ? t.rich('contact.email', {
        email: html`<a href="mailto:${supportEmail}" translate="no">${supportEmail}</a>`,
      })
    : html`${t.text('contact.operator')}`;
}
