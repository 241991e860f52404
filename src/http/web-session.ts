import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ActiveSession, newFormToken, SESSION_LIFETIME_MS } from '../accounts/sessions.ts';
import type { PageContext, Viewer } from '../web/layout.ts';
import { pageContext } from './page-language.ts';

// Cookies and anti-forgery checks of the web pages. Two cookies, both HttpOnly and SameSite=Lax:
// the session (set at sign-in) and, for visitors not signed in, a random form token that their
// sign-in and sign-up forms must echo (the double-submit pattern), so that even those forms
// cannot be posted from another site. Signed-in forms echo the session's own token instead.

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, resolved once per request by the web plugin; null elsewhere. */
    webSession: ActiveSession | null;
  }
}

// Longer than any real field: a bound on what one request can make the service hash or store.
const MAX_FIELD_CHARS = 1024;

/** A form field as one string: absent, repeated or over-long fields read as empty. */
export function formField(request: FastifyRequest, name: string): string {
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return '';
  const value: unknown = Reflect.get(body, name);
  return typeof value === 'string' && value.length <= MAX_FIELD_CHARS ? value : '';
}

/** Cookie names and attributes, fixed at start from the public base URL. */
export interface CookiePolicy {
  readonly session: string;
  readonly form: string;
  /** The cookie of a value handed from a POST to the GET after it (a new API key). */
  readonly flash: string;
  /** Served over TLS: cookies are Secure and take the `__Host-` prefix. */
  readonly secure: boolean;
  /** The origin pages are served from, as browsers send it in `Origin`. */
  readonly publicOrigin: string;
}

/**
 * Over https, the `__Host-` prefix makes the browser refuse the cookie unless it is Secure,
 * has Path=/ and no Domain, so a neighbouring subdomain cannot plant or overwrite it.
 */
export function cookiePolicy(publicBaseUrl: string): CookiePolicy {
  const url = new URL(publicBaseUrl);
  const secure = url.protocol === 'https:';
  const prefix = secure ? '__Host-' : '';
  // The flash cookie's Path is /dashboard, which `__Host-` forbids; `__Secure-` still demands TLS.
  const flash = secure ? '__Secure-ijwi_new_key' : 'ijwi_new_key';
  return {
    session: `${prefix}ijwi_session`,
    form: `${prefix}ijwi_form`,
    flash,
    secure,
    publicOrigin: url.origin,
  };
}

const baseCookie = (policy: CookiePolicy) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: policy.secure }) as const;

/** Sets the session cookie for a session just started. */
export function setSessionCookie(reply: FastifyReply, policy: CookiePolicy, token: string): void {
  reply.setCookie(policy.session, token, { ...baseCookie(policy), maxAge: SESSION_LIFETIME_MS / 1000 });
}

/**
 * The cookie that carries a sealed value from a POST to the GET it redirects to (`sealed-flash.ts`):
 * only to the dashboard, for two minutes, never sent by another site's request.
 */
export function flashCookie(policy: CookiePolicy) {
  return {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'strict',
    secure: policy.secure,
    maxAge: 120,
  } as const;
}

export function clearSessionCookie(reply: FastifyReply, policy: CookiePolicy): void {
  reply.clearCookie(policy.session, baseCookie(policy));
}

/**
 * The token this request's forms must carry: the session's, or for a visitor the form cookie's,
 * set now if the browser has none yet.
 */
export function formToken(request: FastifyRequest, reply: FastifyReply, policy: CookiePolicy): string {
  if (request.webSession) return request.webSession.csrfToken;
  const existing = request.cookies[policy.form];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = newFormToken();
  reply.setCookie(policy.form, token, baseCookie(policy));
  return token;
}

/**
 * The signed-in session, or a redirect to sign-in that comes back here. For pages: a request
 * without a session is answered and `undefined` returned.
 */
export function sessionOrSignIn(request: FastifyRequest, reply: FastifyReply): ActiveSession | undefined {
  if (request.webSession) return request.webSession;
  const path = request.url.split('?')[0] ?? '/';
  void reply.redirect(`/signin?next=${encodeURIComponent(path)}`, 303);
  return undefined;
}

/** The viewer of a page, for its header. */
export function viewerOf(request: FastifyRequest): Viewer {
  const session = request.webSession;
  return session
    ? { kind: 'user', email: session.user.email, csrfToken: session.csrfToken }
    : { kind: 'visitor' };
}

/** What a page of this request is rendered for, with its viewer from the session. */
export function webPageContext(request: FastifyRequest): PageContext {
  return pageContext(request, viewerOf(request));
}

/**
 * Whether a state-changing request comes from this site's own pages. Browsers name the page's
 * origin in `Origin` on every POST: it must be the public origin or the one the request was
 * addressed to (the same service reached as localhost, say). Without `Origin`, `Sec-Fetch-Site`
 * must say same-origin. A client that sends neither is not a browser a forged page can drive,
 * and still needs the token.
 */
export function fromOwnPage(request: FastifyRequest, policy: CookiePolicy): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    return origin === policy.publicOrigin || origin === `${request.protocol}://${request.host}`;
  }
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** Compares two secrets in constant time. */
export function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The anti-forgery check of every state-changing web request: from this site's pages, and
 * carrying the expected token in the `_csrf` form field or the `X-CSRF-Token` header.
 */
export function passesCsrfCheck(request: FastifyRequest, policy: CookiePolicy): boolean {
  if (!fromOwnPage(request, policy)) return false;
  const header = request.headers['x-csrf-token'];
  const presented = formField(request, '_csrf') || (typeof header === 'string' ? header : '');
  const expected = request.webSession?.csrfToken ?? request.cookies[policy.form] ?? '';
  return presented.length > 0 && expected.length > 0 && sameToken(presented, expected);
}
