import type { InsufficientTokens } from '../accounts/billing.ts';
import { StoreUnavailableError } from '../store/store-unavailable.ts';
import type { CallLog } from './call-services.ts';

/**
 * Every way a billed call is refused before its audio, as a value: each transport maps it to its
 * own error shape (`http/errors.ts` for Ijwi's, the compatible protocols on top of that). A
 * refusal never costs anything: nothing was charged, or the charge was given back.
 */
export type CallRefusal =
  /** The key is not valid or has been revoked. */
  | { readonly code: 'invalid_key' }
  /** The caller's account vanished between authentication and billing. */
  | { readonly code: 'account_gone' }
  /** The caller's rolling window is full (`per` names the bucket: "key", "account"). */
  | {
      readonly code: 'rate_limited';
      readonly limit: number;
      readonly retryAfterSeconds: number;
      readonly per: string;
    }
  | InsufficientTokens
  /** The voice speaks as many calls as it can take (a neural voice at its limit). */
  | { readonly code: 'voice_busy'; readonly retryAfterSeconds: number }
  /** The engines are warming up, or a store (`store`: "database", ...) is unreachable. */
  | { readonly code: 'not_ready'; readonly store?: string }
  /** The text holds nothing to speak (no letters or numbers, once read). */
  | { readonly code: 'nothing_to_say' }
  /** The account has as many playable URLs alive as it may (`play-urls.ts`). */
  | { readonly code: 'too_many_play_urls'; readonly limit: number };

/** A call's answer: its value, or the refusal. */
export type CallResult<T> =
  | ({ readonly ok: true } & T)
  | { readonly ok: false; readonly refusal: CallRefusal };

export const refused = (refusal: CallRefusal): { readonly ok: false; readonly refusal: CallRefusal } => ({
  ok: false,
  refusal,
});

/**
 * Runs `call`; a store outage it throws (the ledger, the file store unreachable) is the
 * `not_ready` refusal, logged as an outage, not a bug: the client retries.
 */
export async function refusingOutages<T>(
  log: CallLog,
  call: () => Promise<CallResult<T>>,
): Promise<CallResult<T>> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    log.warn({ store: error.store, reason: error.reason }, 'store unavailable');
    return refused({ code: 'not_ready', store: error.store });
  }
}
