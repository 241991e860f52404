import { html, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';

const TITLES: Readonly<Record<number, string>> = {
  404: 'Page not found',
  405: 'Not available here',
  429: 'Too many requests',
  503: 'Starting up',
};

/**
 * The site's own page for an error a browser meets (an unknown address, an expired audio file):
 * what happened in words, the request id for support, and a way back. API clients get the JSON body.
 */
export function errorPage(options: { status: number; message: string; requestId: string }): SafeHtml {
  const title =
    TITLES[options.status] ?? (options.status >= 500 ? 'Something went wrong' : 'Request refused');
  const main = html`<section class="auth">
  <div class="auth-card card">
    <p class="muted">Error ${options.status}</p>
    <h1>${title}</h1>
    <p>${options.message.charAt(0).toUpperCase()}${options.message.slice(1)}.</p>
    <p class="muted small">Request id: <code>${options.requestId}</code></p>
    <p><a class="btn btn-primary" href="/">Go to the home page</a> <a class="btn btn-secondary" href="/status">Service status</a></p>
  </div>
</section>`;
  return page({ title: `${title} · Ijwi`, viewer: { kind: 'unknown' }, section: 'none', main });
}
