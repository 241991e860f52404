import { html, type SafeHtml } from '../html.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translator } from '../i18n/translator.ts';
import { type PageContext, page } from '../layout.ts';

const NAMES: Readonly<Record<string, MessageKey>> = {
  engine: 'status.part.engine',
  database: 'status.part.database',
  rate_limit: 'status.part.rateLimit',
  storage: 'status.part.storage',
  instance: 'status.part.instance',
};

/** A check's state in words; what the check itself says (a driver's error code) follows as code. */
function stateCell(t: Translator, state: string): SafeHtml {
  if (state === 'ok') return html`${t.text('status.state.ok')}`;
  const words = state.startsWith('degraded') ? t.text('status.state.degraded') : t.text('status.state.down');
  return html`${words} <code>${state}</code>`;
}

/** The service's status for people: each check of the health endpoint in words. */
export function statusPage(
  context: PageContext,
  options: {
    readonly ready: boolean;
    readonly version: string;
    readonly checks: Readonly<Record<string, string>>;
  },
): SafeHtml {
  const { t } = context;
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>${t.text('status.title')}</h1>
      <p class="muted">${t.text(options.ready ? 'status.up' : 'status.down')}</p>
    </div>
  </div>
</section>
<section class="section section-tight">
  <div class="container">
    <div class="table-wrap"><table class="table">
      <thead><tr><th scope="col">${t.text('status.part')}</th><th scope="col">${t.text('status.state')}</th></tr></thead>
      <tbody>${Object.entries(options.checks).map(([name, state]) => {
        const key = NAMES[name];
        return html`<tr><td>${key ? t.text(key) : html`<code>${name}</code>`}</td><td>${stateCell(t, state)}</td></tr>`;
      })}</tbody>
    </table></div>
    <p class="muted small">${t.rich('status.version', { version: html`<code>${options.version}</code>`, path: html`<code>/api/v1/health.php</code>` })}</p>
  </div>
</section>`;
  return page(context, { title: t.text('status.pageTitle'), section: 'none', main });
}
