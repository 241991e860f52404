import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { type PageContext, page } from '../layout.ts';

const TITLES: Readonly<Record<number, MessageKey>> = {
  404: 'error.title.404',
  405: 'error.title.405',
  429: 'error.title.429',
  503: 'error.title.503',
};

// What a person is told, by the error's code. The API's English message is for programs and
// stays in the JSON body; a code without a sentence of its own gets its status class's.
const MESSAGES: Readonly<Record<string, MessageKey>> = {
  not_found: 'error.message.notFound',
  method_not_allowed: 'error.message.methodNotAllowed',
  rate_limited: 'error.message.rateLimited',
  not_ready: 'error.message.notReady',
  voice_busy: 'error.message.notReady',
  invalid_api_key: 'error.message.invalidApiKey',
  not_signed_in: 'error.message.notSignedIn',
  forbidden: 'error.message.forbidden',
  uri_too_long: 'error.message.uriTooLong',
  headers_too_large: 'error.message.headersTooLarge',
  request_timeout: 'error.message.requestTimeout',
  voice_cloning_retired: 'error.message.retired',
};

/** The sentence for an error: a generated file's own when it is one, else by code, else by status class. */
function messageKey(code: string, status: number, path: string): MessageKey {
  if (code === 'not_found' && path.startsWith('/generated/')) return 'error.message.generatedGone';
  return MESSAGES[code] ?? (status >= 500 ? 'error.message.server' : 'error.message.request');
}

/**
 * The site's own page for an error a browser meets (an unknown address, an expired audio file):
 * what happened in words, the request id for support, and a way back. API clients get the JSON body.
 */
export function errorPage(
  context: PageContext,
  options: { status: number; code: string; requestId: string },
): SafeHtml {
  const { t } = context;
  const title = t.text(
    TITLES[options.status] ?? (options.status >= 500 ? 'error.title.server' : 'error.title.request'),
  );
  const path = context.path.split('?')[0] ?? '/';
  const main = html`<section class="auth">
  <div class="auth-card card">
    <p class="muted">${t.text('error.status', { status: options.status })}</p>
    <h1>${title}</h1>
    <p>${t.text(messageKey(options.code, options.status, path))}</p>
    <p class="muted small">${t.rich('error.requestId', { id: html`<code>${options.requestId}</code>` })}</p>
    <p><a class="btn btn-primary" href="/">${t.text('common.home')}</a> <a class="btn btn-secondary" href="/status">${t.text('nav.status')}</a></p>
  </div>
</section>`;
  return page(context, { title: t.text('common.pageTitle', { page: title }), section: 'none', main });
}
