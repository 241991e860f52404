import { html, type SafeHtml } from '../html.ts';
import { type PageContext, page } from '../layout.ts';

/** A page that only explains something: a refused form, too many attempts. Its words come translated. */
export function messagePage(
  context: PageContext,
  options: { title: string; message: string; action: { href: string; label: string } },
): SafeHtml {
  const main = html`<section class="auth">
  <div class="auth-card card">
    <h1>${options.title}</h1>
    <p>${options.message}</p>
    <p><a class="btn btn-primary" href="${options.action.href}">${options.action.label}</a></p>
  </div>
</section>`;
  return page(context, {
    title: context.t.text('common.pageTitle', { page: options.title }),
    section: 'none',
    main,
  });
}
