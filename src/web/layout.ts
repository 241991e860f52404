import { assetUrl } from './assets.ts';
import { html, type SafeHtml, trusted } from './html.ts';
import type { MessageKey } from './i18n/catalogue.ts';
import { SITE_LANGUAGES } from './i18n/languages.ts';
import { type Translator, translatorFor } from './i18n/translator.ts';

/**
 * Who is looking at a page. `unknown` is for public pages served without reading the session
 * cookie (the voices page of the API): their header shows neither "Sign in" nor "Sign out".
 */
export type Viewer =
  | { readonly kind: 'user'; readonly email: string; readonly csrfToken: string }
  | { readonly kind: 'visitor' }
  | { readonly kind: 'unknown' };

/** What every page is rendered for: the reader's language, who they are, and where they are. */
export interface PageContext {
  readonly t: Translator;
  readonly viewer: Viewer;
  /** This page's path and query, where the language switcher brings the reader back to. */
  readonly path: string;
}

export type Section = 'home' | 'voices' | 'studio' | 'dashboard' | 'docs' | 'signin' | 'signup' | 'none';

export interface PageOptions {
  readonly title: string;
  readonly description?: string;
  readonly section: Section;
  readonly main: SafeHtml;
  /** Asset file names of the page's own scripts (ES modules, deferred), loaded after `site.js`. */
  readonly scripts?: readonly string[];
}

/** The mark: three bars of a sound wave in a rounded square. Drawn here, so no image request. */
export const logoMark = trusted(
  '<svg class="logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="9" fill="currentColor"/><rect x="8" y="12" width="3.2" height="8" rx="1.6" fill="#fff"/><rect x="14.4" y="7" width="3.2" height="18" rx="1.6" fill="#fff"/><rect x="20.8" y="10" width="3.2" height="12" rx="1.6" fill="#f5c400"/></svg>',
);

const NAV: readonly { readonly section: Section; readonly href: string; readonly label: MessageKey }[] = [
  { section: 'voices', href: '/voices', label: 'nav.voices' },
  { section: 'studio', href: '/studio', label: 'nav.studio' },
  { section: 'dashboard', href: '/dashboard', label: 'nav.dashboard' },
  { section: 'docs', href: '/docs', label: 'nav.docs' },
];

/** Where a language switcher link goes: it remembers the choice, then comes back to `path`. */
export function languageSwitchUrl(language: string, path: string): string {
  return `/language/${language}?next=${encodeURIComponent(path)}`;
}

function accountActions({ t, viewer }: PageContext): SafeHtml {
  switch (viewer.kind) {
    case 'user':
      return html`<span class="nav-user" title="${viewer.email}" translate="no">${viewer.email}</span>
        <form method="post" action="/signout" class="inline-form">
          <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
          <button type="submit" class="btn btn-ghost btn-small">${t.text('nav.signOut')}</button>
        </form>`;
    case 'visitor':
      return html`<a class="btn btn-ghost btn-small" href="/signin">${t.text('nav.signIn')}</a>
        <a class="btn btn-primary btn-small" href="/signup">${t.text('nav.getStarted')}</a>`;
    case 'unknown':
      return html`<a class="btn btn-primary btn-small" href="/studio">${t.text('nav.openStudio')}</a>`;
  }
}

/**
 * The language switcher: each language named in itself (and marked so, for screen readers and
 * translation tools), the current one marked; a plain link, so it works without a script.
 */
function languageSwitcher({ t, path }: PageContext): SafeHtml {
  const links = SITE_LANGUAGES.map((language) => {
    const name = translatorFor(language).text('language.autonym');
    return language === t.language
      ? html`<li><a href="${languageSwitchUrl(language, path)}" lang="${language}" hreflang="${language}" aria-current="true">${name}</a></li>`
      : html`<li><a href="${languageSwitchUrl(language, path)}" lang="${language}" hreflang="${language}">${name}</a></li>`;
  });
  return html`<nav class="language-switcher" aria-label="${t.text('nav.language')}"><ul>${links}</ul></nav>`;
}

/** A whole page: head, header with navigation and the language switcher, the page's main content, footer. */
export function page(context: PageContext, options: PageOptions): SafeHtml {
  const { t } = context;
  const description = options.description ?? t.text('layout.description');
  const navLinks = NAV.map(
    (item) =>
      html`<li><a href="${item.href}"${item.section === options.section ? trusted(' aria-current="page"') : ''}>${t.text(item.label)}</a></li>`,
  );
  const thanks = SITE_LANGUAGES.map(
    (language) => html`<span lang="${language}">${translatorFor(language).text('layout.thanks')}</span>`,
  );
  return html`<!doctype html>
<html lang="${t.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="${assetUrl('icon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('site.css')}">
<script src="${assetUrl('site.js')}" defer></script>
${(options.scripts ?? []).map((name) => html`<script type="module" src="${assetUrl(name)}"></script>`)}
</head>
<body data-copied="${t.text('common.copied')}" data-copy-fallback="${t.text('common.copyFallback')}">
<a class="skip-link" href="#main">${t.text('nav.skip')}</a>
<header class="site-header">
  <div class="container header-inner">
    <a class="brand" href="/" translate="no">${logoMark}<span>Ijwi</span></a>
    <nav class="main-nav" aria-label="${t.text('nav.main')}">
      <ul class="nav-links">${navLinks}</ul>
    </nav>
    ${languageSwitcher(context)}
    <div class="nav-actions">${accountActions(context)}</div>
  </div>
</header>
<main id="main" tabindex="-1">
${options.main}
</main>
<footer class="site-footer">
  <div class="container footer-inner">
    <p class="footer-brand">${logoMark}<span>${t.rich('layout.footer.tagline', { brand: (words) => html`<strong>${words}</strong>` })}</span></p>
    <ul class="footer-links">
      <li><a href="/voices">${t.text('nav.voices')}</a></li>
      <li><a href="/docs">${t.text('nav.docs')}</a></li>
      <li><a href="/status">${t.text('nav.status')}</a></li>
    </ul>
    <p class="footer-note">${thanks.map((item, i) => (i === 0 ? item : html` · ${item}`))}</p>
  </div>
</footer>
</body>
</html>
`;
}
