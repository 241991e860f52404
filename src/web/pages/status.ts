import { html, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';

const NAMES: Readonly<Record<string, string>> = {
  engine: 'Speech engines',
  database: 'Accounts and billing',
  rate_limit: 'Rate limits',
  storage: 'Audio files',
};

/** The service's status for people: each check of the health endpoint in words. */
export function statusPage(options: {
  readonly ready: boolean;
  readonly version: string;
  readonly checks: Readonly<Record<string, string>>;
}): SafeHtml {
  const main = html`<section class="page-head">
  <div class="container page-head-inner">
    <div>
      <h1>Service status</h1>
      <p class="muted">${options.ready ? 'Ijwi is up and taking requests.' : 'Ijwi is not taking requests right now; please try again shortly.'}</p>
    </div>
  </div>
</section>
<section class="section section-tight">
  <div class="container">
    <div class="table-wrap"><table class="table">
      <thead><tr><th scope="col">Part</th><th scope="col">State</th></tr></thead>
      <tbody>${Object.entries(options.checks).map(
        ([name, state]) =>
          html`<tr><td>${NAMES[name] ?? name}</td><td>${state === 'ok' ? 'Working' : state}</td></tr>`,
      )}</tbody>
    </table></div>
    <p class="muted small">Version ${options.version}. Programs can read the same as JSON at <code>/api/v1/health.php</code>.</p>
  </div>
</section>`;
  return page({ title: 'Service status · Ijwi', viewer: { kind: 'unknown' }, section: 'none', main });
}
