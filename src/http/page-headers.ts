import type { FastifyReply } from 'fastify';
import type { SafeHtml } from '../web/html.ts';

/**
 * Headers of every HTML page. The policy allows only this origin's own scripts, styles and
 * media (no inline script, so injected markup cannot run), `blob:` audio for the studio's
 * downloads, and no framing (clickjacking). Pages carry the session's state, so no cache keeps them.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; " +
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
  // The same address is served in the language the cookie or the browser asks for.
  Vary: 'Cookie, Accept-Language',
};

/** Sends a rendered page with `PAGE_HEADERS`. */
export function sendPage(reply: FastifyReply, page: SafeHtml, status = 200): FastifyReply {
  return reply.status(status).headers(PAGE_HEADERS).send(page.value);
}
