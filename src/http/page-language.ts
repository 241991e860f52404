import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DEFAULT_LANGUAGE,
  isSiteLanguage,
  negotiateLanguage,
  type SiteLanguage,
} from '../web/i18n/languages.ts';
import { translatorFor } from '../web/i18n/translator.ts';
import type { PageContext, Viewer } from '../web/layout.ts';

/**
 * The cookie that remembers a browser's choice of website language. No `__Host-` prefix: it is
 * read by pages outside the signed-in scope too (errors, the voices page), and a neighbour that
 * planted one could only change the language a page is shown in.
 */
export const LANGUAGE_COOKIE = 'ijwi_lang';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
// Longer than any cookie header of this site: past it, the header is not parsed at all.
const MAX_COOKIE_HEADER = 8192;

/** The language the browser chose with the switcher, from its cookie, if any. */
export function chosenLanguage(request: FastifyRequest): SiteLanguage | undefined {
  const header = request.headers.cookie;
  if (header === undefined || header.length > MAX_COOKIE_HEADER) return undefined;
  const value = fastifyCookie.parse(header)[LANGUAGE_COOKIE];
  return isSiteLanguage(value) ? value : undefined;
}

/**
 * The language a page is served in: the signed-in user's choice, else the browser's (the
 * switcher's cookie), else the first of ours its `Accept-Language` names, else English.
 */
export function pageLanguage(request: FastifyRequest): SiteLanguage {
  // Outside the website's plugin the session is never resolved, so the property is absent.
  const own = request.webSession?.user.language;
  if (isSiteLanguage(own)) return own;
  return chosenLanguage(request) ?? negotiateLanguage(request.headers['accept-language']) ?? DEFAULT_LANGUAGE;
}

/** Remembers the browser's choice for a year, on every path. */
export function setLanguageCookie(reply: FastifyReply, language: SiteLanguage, secure: boolean): void {
  reply.setCookie(LANGUAGE_COOKIE, language, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: YEAR_SECONDS,
  });
}

/** What a page of this request is rendered for: its language, its viewer, and its address. */
export function pageContext(request: FastifyRequest, viewer: Viewer): PageContext {
  return { t: translatorFor(pageLanguage(request)), viewer, path: request.url };
}
