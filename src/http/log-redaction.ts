import type { FastifyRequest } from 'fastify';

// What the request log may say of a request. Some clients must put a secret in the URL (a
// Cartesia socket's `api_key`, the studio socket's anti-forgery `csrf`, a playable URL's
// signature): the log keeps the name of such a parameter and never its value.

/** Query parameters whose values are secrets, by name (any case). */
const SECRET_PARAMETER = /key|token|secret|csrf|auth|password/i;

/**
 * A playable URL's signature, the credential its path carries (`/play/<id>.<expiry>.<key>.
 * <signature>.<format>`); the rest stays, so the log still names the URL.
 */
const PLAY_SIGNATURE = /^(\/play\/[^/?.]*\.[^/?.]*\.[^/?.]*\.)[^/?.]+/;

/** `url` with a playable URL's signature and the value of every secret query parameter replaced. */
export function redactedUrl(given: string): string {
  const url = given.replace(PLAY_SIGNATURE, '$1[redacted]');
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parts = url
    .slice(query + 1)
    .split('&')
    .map((part) => {
      const name = part.split('=', 1)[0] ?? '';
      return SECRET_PARAMETER.test(decodeSafely(name)) ? `${name}=[redacted]` : part;
    });
  return `${url.slice(0, query)}?${parts.join('&')}`;
}

function decodeSafely(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The request as the log shows it: Fastify's default fields, its URL redacted. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
