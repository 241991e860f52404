import type { AccountService } from '../accounts/accounts.ts';
import type { EnginePool, OpenCall } from '../speech/pool/engine-pool.ts';
import { openCall, VoiceBusy } from '../speech/synthesize.ts';
import type { Voice } from '../speech/voices/voices.ts';
import type { RateLimitDecision, RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import type { CallMetrics, SpeechPath } from './call-services.ts';
import { type CallRefusal, type CallResult, refused } from './refusal.ts';

/** The rolling window every billed call counts in: a minute. */
const WINDOW_MS = 60_000;

/** A caller's bucket: at most `limit` calls accepted in any minute, named `per` in a refusal. */
export interface RateBucket {
  readonly key: string;
  readonly limit: number;
  readonly per: string;
}

/**
 * Counts one call in `bucket`. The decision comes back either way (a transport shows it, as
 * HTTP's RateLimit headers do); a full window is the `rate_limited` refusal, recorded on `path`.
 */
export async function countCall(
  store: RateLimitStore,
  bucket: RateBucket,
  metrics: CallMetrics,
  path: SpeechPath,
): Promise<{ readonly decision: RateLimitDecision; readonly refusal?: CallRefusal }> {
  const decision = await store.hit(bucket.key, bucket.limit, WINDOW_MS);
  if (decision.allowed) return { decision };
  metrics.rateLimited(path);
  return {
    decision,
    refusal: {
      code: 'rate_limited',
      limit: decision.limit,
      retryAfterSeconds: Math.ceil(decision.resetMs / 1000),
      per: bucket.per,
    },
  };
}

/** Who an API key speaks for. */
export interface KeyCaller {
  readonly accountId: string;
  readonly keyId: string;
}

/** The key's caller, or `invalid_key`. */
export async function authenticateKey(
  accounts: Pick<AccountService, 'authenticate'>,
  key: string,
): Promise<CallResult<{ readonly caller: KeyCaller }>> {
  const auth = await accounts.authenticate(key);
  if (!auth.ok) return refused({ code: 'invalid_key' });
  return { ok: true, caller: { accountId: auth.accountId, keyId: auth.keyId } };
}

/** The engine pool once it is warm, or `not_ready` while it starts. */
export function readyPool(pool: () => EnginePool | undefined): CallResult<{ readonly pool: EnginePool }> {
  const ready = pool();
  return ready?.ready ? { ok: true, pool: ready } : refused({ code: 'not_ready' });
}

/** A call on `voice`, held across its syntheses, or `voice_busy` (a neural voice at its limit). */
export function openVoice(pool: EnginePool, voice: Voice): CallResult<{ readonly call: OpenCall }> {
  try {
    return { ok: true, call: openCall(pool, voice) };
  } catch (error) {
    if (error instanceof VoiceBusy)
      return refused({ code: 'voice_busy', retryAfterSeconds: error.retryAfterSeconds });
    throw error;
  }
}
