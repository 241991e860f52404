import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { AccountService } from '../accounts/accounts.ts';
import {
  authenticateKey,
  countCall,
  type KeyCaller,
  type RateBucket,
  readyPool,
} from '../calls/admission.ts';
import type { CallMetrics, SpeechPath } from '../calls/call-services.ts';
import type { EnginePool } from '../speech/pool/engine-pool.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import { apiKeyFrom } from './api-key.ts';
import { type RefusalContext, refusalError } from './errors.ts';

// Admission of a request: for a billed route, a hook that runs before the body is validated (the
// key, then the rolling rate limit, every authenticated request counting, 429s excepted, with its
// headers); for any route that needs the engines, their readiness.

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request's API key speaks for, once `admitKey` has run. */
    keyCaller: KeyCaller | undefined;
  }
}

export interface KeyAdmission {
  readonly accounts: Pick<AccountService, 'authenticate'>;
  readonly rateLimit: RateLimitStore;
  readonly requestsPerMinute: number;
  readonly metrics: CallMetrics;
  /** Where the request's key is (Ijwi's headers when absent). */
  readonly keyFrom?: (request: FastifyRequest) => string;
}

const keyRefusals: RefusalContext = { caller: 'key', supportEmail: null };

/** A `preValidation` hook that admits the request's key on `path`, or throws the 401 or 429. */
export function admitKey(admission: KeyAdmission, path: SpeechPath): preValidationAsyncHookHandler {
  return async (request, reply) => {
    const key = admission.keyFrom ? admission.keyFrom(request) : apiKeyFrom(request.headers);
    const auth = await authenticateKey(admission.accounts, key);
    if (!auth.ok) throw refusalError(auth.refusal, keyRefusals);
    await countRequest(
      reply,
      admission.rateLimit,
      { key: auth.caller.keyId, limit: admission.requestsPerMinute, per: 'key' },
      admission.metrics,
      path,
    );
    request.keyCaller = auth.caller;
  };
}

/** The caller `admitKey` admitted; a route without the hook is a bug. */
export function keyCaller(request: FastifyRequest): KeyCaller {
  if (request.keyCaller === undefined) throw new Error('the route has no key admission hook');
  return request.keyCaller;
}

/** Counts one request in `bucket` and sets the RateLimit headers; throws the 429 when the window is full. */
export async function countRequest(
  reply: FastifyReply,
  store: RateLimitStore,
  bucket: RateBucket,
  metrics: CallMetrics,
  path: SpeechPath,
): Promise<void> {
  const { decision, refusal } = await countCall(store, bucket, metrics, path);
  reply.header('RateLimit-Limit', String(decision.limit));
  reply.header('RateLimit-Remaining', String(decision.remaining));
  reply.header('RateLimit-Reset', String(Math.ceil(decision.resetMs / 1000)));
  if (refusal) throw refusalError(refusal, keyRefusals);
}

/** The engine pool once it is warm, or the 503 `not_ready` while it starts. */
export function enginesReady(pool: () => EnginePool | undefined): EnginePool {
  const ready = readyPool(pool);
  if (!ready.ok) throw refusalError(ready.refusal, keyRefusals);
  return ready.pool;
}
