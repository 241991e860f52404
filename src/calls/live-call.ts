import { newId } from '../accounts/ids.ts';
import type { EnginePool, OpenCall } from '../speech/pool/engine-pool.ts';
import type { Voice } from '../speech/voices/voices.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import { countCall, openVoice, type RateBucket, readyPool } from './admission.ts';
import type { CallServices } from './call-services.ts';
import { LiveBill } from './live-bill.ts';
import { type CallResult, refused } from './refusal.ts';
import { billingRefusal } from './stream-call.ts';

/** Who a live context speaks for. */
export interface LiveCaller {
  readonly accountId: string;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
}

/** An admitted live context: the pool, its call on its voice, and its bill. */
export interface LiveCall {
  readonly pool: EnginePool;
  /** Held from the context's first part to its last; the context closes it. */
  readonly call: OpenCall;
  readonly bill: LiveBill;
}

/**
 * Admits a live context (a stream whose text arrives later) on `voice`: the engines ready, one
 * call counted in `bucket`, an early refusal when the account cannot pay for any audio, then the
 * call on its voice (a busy neural voice refuses the context now, never between two of its
 * sentences) and its bill (`LiveBill`), which charges each part before its first audio.
 */
export async function openLiveCall(
  services: CallServices,
  rateLimit: RateLimitStore,
  bucket: RateBucket,
  caller: LiveCaller,
  voice: Voice,
): Promise<CallResult<LiveCall>> {
  const ready = readyPool(services.pool);
  if (!ready.ok) return ready;
  const counted = await countCall(rateLimit, bucket, services.metrics, 'live');
  if (counted.refusal) return refused(counted.refusal);
  const precheck = await services.billing.precheck(caller.accountId, 1, 0, {
    studio: caller.studio,
    language: voice.language,
  });
  if (!precheck.ok) return refused(billingRefusal(precheck));
  const opened = openVoice(ready.pool, voice);
  if (!opened.ok) return opened;
  const bill = new LiveBill(services.billing, {
    accountId: caller.accountId,
    requestId: newId('ctx'),
    language: voice.language,
    charsPerToken: services.charsPerToken,
    studio: caller.studio,
  });
  return { ok: true, pool: ready.pool, call: opened.call, bill };
}
