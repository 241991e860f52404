import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from './errors.ts';

const unauthorized = (message: string) =>
  new ApiError('invalid_api_key', message, { headers: { 'WWW-Authenticate': 'Bearer' } });

/**
 * The API key a request carries, from `Authorization: Bearer <key>` or `X-Voice-Api-Key`.
 * Both may be sent if they agree; two different keys are a client bug, refused with 400.
 */
export function apiKeyFrom(headers: IncomingHttpHeaders): string {
  const authorization = headers.authorization;
  const headerKey = headers['x-voice-api-key'];
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized('the Authorization header must be "Bearer <key>"');
    bearer = match[1];
  }
  const explicit = Array.isArray(headerKey) ? headerKey[0] : headerKey?.trim();
  if (bearer !== undefined && explicit !== undefined && bearer !== explicit) {
    throw new ApiError('invalid_request', 'Authorization and X-Voice-Api-Key carry different keys; send one');
  }
  const key = bearer ?? explicit;
  if (!key) throw unauthorized('send your API key as "Authorization: Bearer <key>" or in X-Voice-Api-Key');
  return key;
}
