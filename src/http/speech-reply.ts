import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  BillingOutcome,
  CommitChargeResult,
  InsufficientTokens,
  PrecheckResult,
} from '../accounts/billing.ts';
import type { EnginePool } from '../speech/pool.ts';
import type { SynthesisEvent } from '../speech/synthesize.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import { ApiError } from './errors.ts';
import { nothingToSay } from './tts-request.ts';

// What every route that speaks shares, whoever its caller is (an API key, a studio session):
// readiness, the rolling rate limit and its headers, the 402 body, billing headers, stopping on
// disconnect, and sending audio as a chunked stream.

/** The engine pool, or 503 `not_ready` while it warms up. */
export function readyPool(pool: () => EnginePool | undefined): EnginePool {
  const ready = pool();
  if (!ready?.ready)
    throw new ApiError('not_ready', 'the speech engines are starting; retry in a few seconds', {
      headers: { 'Retry-After': '5' },
    });
  return ready;
}

/**
 * Counts one request under `key` (at most `limit` accepted in any 60 s) and sets the RateLimit
 * headers; throws 429 `rate_limited` with Retry-After when the window is full. `per` names the
 * bucket in the message: "key", "account".
 */
export async function countRequest(
  reply: FastifyReply,
  store: RateLimitStore,
  bucket: { readonly key: string; readonly limit: number; readonly per: string },
): Promise<void> {
  const decision = await store.hit(bucket.key, bucket.limit, 60_000);
  const resetSeconds = String(Math.ceil(decision.resetMs / 1000));
  reply.header('RateLimit-Limit', String(decision.limit));
  reply.header('RateLimit-Remaining', String(decision.remaining));
  reply.header('RateLimit-Reset', resetSeconds);
  if (!decision.allowed) {
    throw new ApiError(
      'rate_limited',
      `at most ${decision.limit} requests per minute per ${bucket.per}; retry in ${resetSeconds} s`,
      { headers: { 'Retry-After': resetSeconds } },
    );
  }
}

/** The 402: the balance, the tokens the request needs and the smallest top-up, as fields of the error. */
export function insufficientTokens(refusal: InsufficientTokens): ApiError {
  return new ApiError(
    'insufficient_tokens',
    `this request needs ${refusal.needed} tokens and the balance is ${refusal.balance}; top up at least ${refusal.minimumTopUp} tokens`,
    {
      details: {
        balance: refusal.balance,
        tokens_needed: refusal.needed,
        minimum_top_up: refusal.minimumTopUp,
      },
    },
  );
}

/** A billing refusal from `precheck` or `commitCharge`. */
export type BillingRefusal = Exclude<PrecheckResult | CommitChargeResult, { ok: true }>;

/**
 * A refused precheck or charge as the error the client gets. `accountGone` names the error for
 * an account that vanished between authentication and billing, which depends on how the caller
 * authenticated.
 */
export function refusalError(refusal: BillingRefusal, accountGone: () => ApiError): ApiError {
  switch (refusal.code) {
    case 'insufficient_tokens':
      return insufficientTokens(refusal);
    case 'account_not_found':
      return accountGone();
    case 'duplicate_request':
      throw new Error('a request id was charged twice');
  }
}

/** Input made only of punctuation or symbols: no audio came out. */

/** The billing outcome as the stream headers carry it. */
export function billingHeaders(billing: BillingOutcome): Record<string, string> {
  return {
    'X-Voice-Tokens-Charged': String(billing.tokens_charged),
    'X-Voice-Token-Balance': String(billing.token_balance),
    'X-Voice-Free-Uses-Remaining': String(billing.free_uses_remaining),
    'X-Voice-Kinyarwanda-Free': String(billing.kinyarwanda_free),
  };
}

/** Synthesis stops as soon as the client goes away. */
export function abortOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortController {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('client disconnected'));
  };
  reply.raw.once('close', onClose);
  request.raw.once('aborted', onClose);
  return controller;
}

export interface SpeechStream {
  /** The synthesis, started with `controller.signal`. */
  readonly events: AsyncGenerator<SynthesisEvent>;
  readonly controller: AbortController;
  /**
   * Called once the first audio is ready and before any byte is sent: commits the charge (throw
   * an ApiError to refuse) and returns the response headers.
   */
  readonly onFirstAudio: () => Promise<Record<string, string>>;
}

/**
 * Sends synthesis as a chunked 200 whose headers leave with the first audio. An error before
 * then (nothing to say, a refused charge) is a normal JSON error; a failure after audio began
 * cuts the connection without a clean end of the body, so the client can tell the audio is
 * incomplete. A slow reader pauses synthesis instead of filling memory.
 */
export async function streamSpeech(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: SpeechStream,
): Promise<void> {
  const { events, controller } = stream;
  try {
    const first = await events.next();
    if (first.done || first.value.type !== 'audio') throw nothingToSay();
    const headers = await stream.onFirstAudio();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...headers });
    const write = async (bytes: Uint8Array) => {
      if (raw.write(bytes)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          raw.off('drain', done);
          raw.off('close', done);
          resolve();
        };
        raw.once('drain', done);
        raw.once('close', done);
      });
    };
    try {
      await write(first.value.bytes);
      for await (const event of events) {
        if (event.type === 'audio') await write(event.bytes);
      }
      raw.end();
    } catch (error) {
      if (!controller.signal.aborted) request.log.error({ err: error }, 'stream failed after audio began');
      raw.destroy();
    }
  } finally {
    await events.return(undefined);
  }
}
