import { assetUrl } from './assets.ts';
import { html, type SafeHtml, trusted } from './html.ts';

/**
 * Who is looking at a page. `unknown` is for public pages served without reading the session
 * cookie (the voices page of the API): their header shows neither "Sign in" nor "Sign out".
 */
export type Viewer =
  | { readonly kind: 'user'; readonly email: string; readonly csrfToken: string }
  | { readonly kind: 'visitor' }
  | { readonly kind: 'unknown' };

export type Section = 'home' | 'voices' | 'studio' | 'dashboard' | 'docs' | 'signin' | 'signup' | 'none';

export interface PageOptions {
  readonly title: string;
  readonly description?: string;
  readonly viewer: Viewer;
  readonly section: Section;
  readonly main: SafeHtml;
  /** Asset file names of the page's own scripts, loaded deferred after `site.js`. */
  readonly scripts?: readonly string[];
}

/** The mark: three bars of a sound wave in a rounded square. Drawn here, so no image request. */
export const logoMark = trusted(
  '<svg class="logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="9" fill="currentColor"/><rect x="8" y="12" width="3.2" height="8" rx="1.6" fill="#fff"/><rect x="14.4" y="7" width="3.2" height="18" rx="1.6" fill="#fff"/><rect x="20.8" y="10" width="3.2" height="12" rx="1.6" fill="#f5c400"/></svg>',
);

const NAV: readonly { readonly section: Section; readonly href: string; readonly label: string }[] = [
  { section: 'voices', href: '/voices', label: 'Voices' },
  { section: 'studio', href: '/studio', label: 'Studio' },
  { section: 'dashboard', href: '/dashboard', label: 'Dashboard' },
  { section: 'docs', href: '/docs', label: 'API docs' },
];

function accountActions(viewer: Viewer): SafeHtml {
  switch (viewer.kind) {
    case 'user':
      return html`<span class="nav-user" title="${viewer.email}">${viewer.email}</span>
        <form method="post" action="/signout" class="inline-form">
          <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
          <button type="submit" class="btn btn-ghost btn-small">Sign out</button>
        </form>`;
    case 'visitor':
      return html`<a class="btn btn-ghost btn-small" href="/signin">Sign in</a>
        <a class="btn btn-primary btn-small" href="/signup">Get started</a>`;
    case 'unknown':
      return html`<a class="btn btn-primary btn-small" href="/studio">Open the studio</a>`;
  }
}

/** A whole page: head, header with navigation, the page's main content, footer. */
export function page(options: PageOptions): SafeHtml {
  const description =
    options.description ??
    'Ijwi: text to speech for Kinyarwanda, English and French, as files or live telephony streams.';
  const navLinks = NAV.map(
    (item) =>
      html`<li><a href="${item.href}"${item.section === options.section ? trusted(' aria-current="page"') : ''}>${item.label}</a></li>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="${assetUrl('icon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('site.css')}">
<script src="${assetUrl('site.js')}" defer></script>
${(options.scripts ?? []).map((name) => html`<script src="${assetUrl(name)}" defer></script>`)}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
  <div class="container header-inner">
    <a class="brand" href="/">${logoMark}<span>Ijwi</span></a>
    <nav aria-label="Main">
      <ul class="nav-links">${navLinks}</ul>
    </nav>
    <div class="nav-actions">${accountActions(options.viewer)}</div>
  </div>
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
  <div class="container footer-inner">
    <p class="footer-brand">${logoMark}<span><strong>Ijwi</strong> · text to speech for Kinyarwanda, English and French</span></p>
    <ul class="footer-links">
      <li><a href="/voices">Voices</a></li>
      <li><a href="/docs">API docs</a></li>
      <li><a href="/status">Service status</a></li>
    </ul>
    <p class="footer-note" lang="rw">Murakoze · <span lang="en">Thank you</span> · <span lang="fr">Merci</span></p>
  </div>
</footer>
</body>
</html>
`;
}
