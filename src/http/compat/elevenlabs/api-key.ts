import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { AccountService } from '../../../accounts/accounts.ts';

/** What this surface needs of the accounts: the key check every route uses. */
export type KeyCheck = Pick<AccountService, 'authenticate'>;

import { ApiError } from '../../errors.ts';

/** Who an ElevenLabs-compatible request speaks for. */
export interface ElevenLabsCaller {
  readonly accountId: string;
  readonly keyId: string;
}

/**
 * The API key in the `xi-api-key` header, ElevenLabs' only key header; undefined when it is
 * absent or blank. Node joins a repeated header with ", ", so two keys arrive as one that no
 * account has, and are refused as such.
 */
export function elevenLabsKeyFrom(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['xi-api-key'];
  const key = (Array.isArray(value) ? value.join(', ') : value)?.trim();
  return key ? key : undefined;
}

const invalidKey = (message: string) => new ApiError('invalid_api_key', message);

/** The key in `xi-api-key`, or the 401 that names the header (for `admitKey`). */
export function elevenLabsKey(request: Pick<FastifyRequest, 'headers'>): string {
  const key = elevenLabsKeyFrom(request.headers);
  if (key === undefined) throw invalidKey('send your Ijwi API key in the xi-api-key header');
  return key;
}

/**
 * The account behind the request's `xi-api-key`, through the same key check as every Ijwi route;
 * a missing, malformed, unknown or revoked key is a 401 that says which header to send.
 */
export async function authenticateElevenLabs(
  accounts: KeyCheck,
  headers: IncomingHttpHeaders,
): Promise<ElevenLabsCaller> {
  const key = elevenLabsKeyFrom(headers);
  if (key === undefined) throw invalidKey('send your Ijwi API key in the xi-api-key header');
  const auth = await accounts.authenticate(key);
  if (!auth.ok) throw invalidKey('the API key is not valid or has been revoked');
  return { accountId: auth.accountId, keyId: auth.keyId };
}
