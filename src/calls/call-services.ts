import type { BillingService } from '../accounts/billing.ts';
import type { ClauseCache } from '../speech/cache/clause-cache.ts';
import type { EngineId } from '../speech/engines/engine.ts';
import type { EnginePool } from '../speech/pool/engine-pool.ts';

/** How a call's audio leaves the service. */
export type SpeechPath =
  | 'file'
  | 'stream'
  | 'openai'
  | 'live'
  | 'studio'
  | 'elevenlabs'
  | 'vapi'
  | 'deepgram'
  | 'cartesia'
  | 'jambonz'
  | 'play'
  // Not speech: the dictionaries API, whose requests share the key's rate limit.
  | 'dictionaries';

/** Where calls are recorded: implemented by `metrics/`. */
export interface CallMetrics {
  /** A call (or a live context) started on `path`; the function returned ends it, once. */
  callStarted(path: SpeechPath): () => void;
  /** A call's first audio was ready `ms` after its request (as X-Voice-Ttfa-Ms and `ttfa_ms` say). */
  firstAudio(path: SpeechPath, engine: EngineId, ms: number): void;
  /** Seconds of audio a call delivered. */
  audioDelivered(path: SpeechPath, engine: EngineId, seconds: number): void;
  /** A request or live context refused by the rate limit. */
  rateLimited(path: SpeechPath): void;
}

/**
 * What a billed call needs from billing: an early refusal, the one atomic charge, its reversal,
 * the audio its entry stands for, and the balance a live context ends with.
 */
export type CallBilling = Pick<
  BillingService,
  'precheck' | 'commitCharge' | 'refundCharge' | 'balance' | 'recordDuration'
>;

/** Where a call writes what an operator needs (pino's shape; never a text or a key). */
export interface CallLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What every billed call runs on. */
export interface CallServices {
  /** The engine pool once it is warm; undefined while it starts. */
  readonly pool: () => EnginePool | undefined;
  readonly billing: CallBilling;
  /** The token rule: 1 token per started `charsPerToken` characters. */
  readonly charsPerToken: number;
  /** Each account's audio of clauses it has had spoken; absent: none kept. */
  readonly clauseCache?: ClauseCache | undefined;
  readonly metrics: CallMetrics;
}
