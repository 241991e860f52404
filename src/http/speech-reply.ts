import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type BillingOutcome,
  type BillingService,
  type CommitChargeResult,
  type InsufficientTokens,
  type PrecheckResult,
  tokensFor,
} from '../accounts/billing.ts';
import type { EnginePool } from '../speech/pool.ts';
import { type AudioTarget, type SynthesisEvent, synthesize } from '../speech/synthesize.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import { ApiError } from './errors.ts';
import { nothingToSay, type TtsRequest } from './tts-request.ts';

// What every route that speaks shares, whoever its caller is (an API key, a studio session):
// readiness, the rolling rate limit and its headers, the 402 body, billing headers, stopping on
// disconnect, and sending audio as a chunked stream, billed at its first audio.

/**
 * A stream decides free use before synthesis, from this estimate: 0.12 s per character is slower
 * than any of the voices reads (they take 0.06-0.09 s), so the estimate errs towards "long", and
 * a free generation is never given to audio of 120 s or more.
 */
export const ESTIMATED_SECONDS_PER_CHARACTER = 0.12;

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
function insufficientTokens(refusal: InsufficientTokens): ApiError {
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

/** One billed stream: who pays, what to say, where the audio goes. */
export interface BilledStream {
  readonly pool: EnginePool;
  readonly billing: Pick<BillingService, 'precheck' | 'commitCharge'>;
  readonly charsPerToken: number;
  readonly accountId: string;
  readonly tts: TtsRequest;
  readonly target: AudioTarget;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
  /** The error for an account that vanished between authentication and billing. */
  readonly accountGone: () => ApiError;
  /** The headers that describe the audio, given when its first part was ready. */
  readonly audioHeaders: (firstAudioAt: number) => Record<string, string>;
}

/**
 * Refuses early what billing would surely refuse, synthesises, commits the charge when the first
 * audio is ready and before any byte leaves (a client gone before that pays nothing, and no audio
 * is ever sent uncharged), then streams the audio with the billing outcome in its headers.
 */
export async function streamBilledSpeech(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: BilledStream,
): Promise<void> {
  const { tts, studio } = stream;
  const seconds = tts.characters * ESTIMATED_SECONDS_PER_CHARACTER;
  const tokens = tokensFor(tts.input, stream.charsPerToken);
  const language = tts.voice.language;
  const precheck = await stream.billing.precheck(stream.accountId, tokens, seconds, { studio, language });
  if (!precheck.ok) throw refusalError(precheck, stream.accountGone);
  const controller = abortOnDisconnect(request, reply);
  const events = synthesize(stream.pool, {
    text: tts.input,
    voice: tts.voice,
    target: stream.target,
    signal: controller.signal,
  });
  try {
    const first = await events.next();
    if (first.done || first.value.type !== 'audio') throw nothingToSay();
    const firstAudioAt = performance.now();
    const charge = await stream.billing.commitCharge(stream.accountId, {
      tokens,
      seconds,
      characters: tts.characters,
      language,
      requestId: request.id,
      studio,
    });
    if (!charge.ok) throw refusalError(charge, stream.accountGone);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      ...stream.audioHeaders(firstAudioAt),
      'Cache-Control': 'no-store',
      ...billingHeaders(charge.billing),
    });
    await sendAudio(raw, first.value.bytes, events).catch((error: unknown) => {
      // Audio has started: no clean end of the chunked body, so the client knows it is incomplete.
      if (!controller.signal.aborted) request.log.error({ err: error }, 'stream failed after audio began');
      raw.destroy();
    });
  } finally {
    await events.return(undefined);
  }
}

/** Writes the audio as it comes; a slow reader pauses synthesis instead of filling memory. */
async function sendAudio(
  raw: FastifyReply['raw'],
  first: Uint8Array,
  events: AsyncGenerator<SynthesisEvent>,
): Promise<void> {
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
  await write(first);
  for await (const event of events) {
    if (event.type === 'audio') await write(event.bytes);
  }
  raw.end();
}
