import { html, type SafeHtml } from '../html.ts';
import { page, type Viewer } from '../layout.ts';

/** A page that only explains something: a refused form, too many attempts. */
export function messagePage(options: {
  viewer: Viewer;
  title: string;
  message: string;
  action: { href: string; label: string };
}): SafeHtml {
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>${options.title}</h1>
    <p>${options.message}</p>
    <p><a class="btn btn-primary" href="${options.action.href}">${options.action.label}</a></p>
  </div>
</section>`;
  return page({ title: `${options.title} · Ijwi`, viewer: options.viewer, section: 'none', main });
}
