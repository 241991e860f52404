import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type BillingOutcome,
  type BillingService,
  type ChargeRequest,
  type CommitChargeResult,
  type InsufficientTokens,
  type PrecheckResult,
  tokensFor,
} from '../accounts/billing.ts';
import type { LedgerEntry } from '../accounts/repositories.ts';
import type { SpeechPath, TransportMetrics } from '../metrics/metrics.ts';
import type { AccountClauses } from '../speech/clause-cache.ts';
import type { EnginePool, OpenCall } from '../speech/pool/engine-pool.ts';
import {
  AudioBoundExceeded,
  type AudioTarget,
  openCall,
  type SynthesisEvent,
  synthesize,
  VoiceBusy,
} from '../speech/synthesize.ts';
import type { Voice } from '../speech/voices.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import type { StoreUnavailableError } from '../store/store-unavailable.ts';
import { ApiError } from './errors.ts';
import { type StreamBody, sendLaterAudio } from './stream-writer.ts';
import { nothingToSay, type TtsRequest } from './tts-request.ts';

// What every route that speaks shares, whoever its caller is (an API key, a studio session):
// readiness, the rolling rate limit and its headers, the 402 body, billing headers, stopping on
// disconnect, and sending audio as a chunked stream, billed at its first audio.

/** The engine pool, or 503 `not_ready` while it warms up. */
/** The 503 for a voice that takes no more calls now (a neural voice at its limit). */
export function voiceBusyError(busy: VoiceBusy): ApiError {
  return new ApiError(
    'voice_busy',
    'this voice is speaking as many calls as it can take; retry shortly, or choose another voice',
    {
      param: 'speaker_id',
      headers: { 'Retry-After': String(busy.retryAfterSeconds) },
      details: { retry_after: busy.retryAfterSeconds },
    },
  );
}

/** The 503 `not_ready` for a store outage: not a bug, the caller retries (HTTP and live alike). */
export function storeUnavailableError(error: StoreUnavailableError): ApiError {
  return new ApiError('not_ready', `the ${error.store} is unreachable; retry in a few seconds`, {
    headers: { 'Retry-After': '5' },
  });
}

/** Opens a call on `voice` for a caller that holds it across syntheses, or throws the 503 `voice_busy`. */
export function openVoiceCall(pool: EnginePool, voice: Voice): OpenCall {
  try {
    return openCall(pool, voice);
  } catch (error) {
    throw error instanceof VoiceBusy ? voiceBusyError(error) : error;
  }
}

export function readyPool(pool: () => EnginePool | undefined): EnginePool {
  const ready = pool();
  if (!ready?.ready)
    throw new ApiError('not_ready', 'the speech engines are starting; retry in a few seconds', {
      headers: { 'Retry-After': '5' },
    });
  return ready;
}

/** Where a transport records its calls, and which path they take. */
export interface CallMetrics {
  readonly metrics: TransportMetrics;
  readonly path: SpeechPath;
}

/**
 * Counts one request under `key` (at most `limit` accepted in any 60 s) and sets the RateLimit
 * headers; throws 429 `rate_limited` with Retry-After (and records the refusal) when the window is
 * full. `per` names the bucket in the message: "key", "account".
 */
export async function countRequest(
  reply: FastifyReply,
  store: RateLimitStore,
  bucket: { readonly key: string; readonly limit: number; readonly per: string },
  recorded: CallMetrics,
): Promise<void> {
  const decision = await store.hit(bucket.key, bucket.limit, 60_000);
  const resetSeconds = String(Math.ceil(decision.resetMs / 1000));
  reply.header('RateLimit-Limit', String(decision.limit));
  reply.header('RateLimit-Remaining', String(decision.remaining));
  reply.header('RateLimit-Reset', resetSeconds);
  if (!decision.allowed) {
    recorded.metrics.rateLimited(recorded.path);
    throw new ApiError(
      'rate_limited',
      `at most ${decision.limit} requests per minute per ${bucket.per}; retry in ${resetSeconds} s`,
      { headers: { 'Retry-After': resetSeconds } },
    );
  }
}

/**
 * The 402: the balance, the tokens the request needs and the smallest top-up, as fields of the
 * error, and where to buy tokens (the operator's contact when one is configured).
 */
function insufficientTokens(refusal: InsufficientTokens, supportEmail: string | null): ApiError {
  const where = supportEmail
    ? `: ask for them in the dashboard, or write to ${supportEmail}`
    : ' in the dashboard';
  return new ApiError(
    'insufficient_tokens',
    `this request needs ${refusal.needed} tokens and the balance is ${refusal.balance}; top up at least ${refusal.minimumTopUp} tokens${where}`,
    {
      details: {
        balance: refusal.balance,
        tokens_needed: refusal.needed,
        minimum_top_up: refusal.minimumTopUp,
        ...(supportEmail ? { support_email: supportEmail } : {}),
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
export function refusalError(
  refusal: BillingRefusal,
  accountGone: () => ApiError,
  supportEmail: string | null = null,
): ApiError {
  switch (refusal.code) {
    case 'insufficient_tokens':
      return insufficientTokens(refusal, supportEmail);
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

/** One billed stream: who pays, what to say, where the audio goes, and where it is recorded. */
export interface BilledStream extends CallMetrics {
  readonly pool: EnginePool;
  readonly billing: Pick<BillingService, 'precheck' | 'commitCharge' | 'refundCharge' | 'recordDuration'>;
  readonly charsPerToken: number;
  readonly accountId: string;
  /** The account's clause cache (`ClauseCache.forAccount`); absent: none. */
  readonly clauses?: AccountClauses | undefined;
  readonly tts: TtsRequest;
  readonly target: AudioTarget;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
  /** The error for an account that vanished between authentication and billing. */
  readonly accountGone: () => ApiError;
  /** The operator's contact, named in a 402. */
  readonly supportEmail: string | null;
  /** The headers that describe the audio, given when its first part was ready. */
  readonly audioHeaders: (firstAudioAt: number) => Record<string, string>;
  /** How the audio goes into the body; bare bytes when absent. */
  readonly body?: StreamBody;
  /** Called once the whole audio has been written, before the body ends (a failure is logged). */
  readonly finish?: () => Promise<void>;
}

const bareAudio: StreamBody = { first: (audio) => audio, next: (audio) => audio, last: () => undefined };

/**
 * Refuses early what billing would surely refuse, starts the synthesis, commits the charge while
 * the engine makes the first audio (or once it is ready, when the first clause waits for a worker)
 * and before any byte leaves (no audio is ever sent uncharged), then streams the audio with the
 * billing outcome in its headers. The charge is refunded when no first audio comes (an engine
 * failure, a client gone before it), when it cannot be handed to the client, or when the stream
 * stops at its audio bound.
 */
export async function streamBilledSpeech(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: BilledStream,
): Promise<void> {
  const { tts, studio, metrics, path } = stream;
  const engine = tts.voice.engineVoice.engine;
  request.speechLanguage = tts.voice.language;
  const body = stream.body ?? bareAudio;
  // Free use is decided before synthesis, on the most audio the input can produce (its bound,
  // which synthesis also enforces), so a free generation never delivers 120 s or more.
  const seconds = tts.maxSeconds;
  const tokens = tokensFor(tts.document.spokenCharacters, stream.charsPerToken);
  const language = tts.voice.language;
  // Watched from the start: a client gone during the precheck is never synthesised for or charged.
  const controller = abortOnDisconnect(request, reply);
  const precheck = await stream.billing.precheck(stream.accountId, tokens, seconds, { studio, language });
  if (!precheck.ok) throw refusalError(precheck, stream.accountGone, stream.supportEmail);
  // Admitted before anything is charged: a voice at its call limit is a 503 that costs nothing.
  const call = openVoiceCall(stream.pool, tts.voice);
  const endCall = metrics.callStarted(path);
  const events = synthesize(stream.pool, {
    document: tts.document,
    voice: tts.voice,
    target: stream.target,
    maxSeconds: tts.maxSeconds,
    signal: controller.signal,
    clauses: stream.clauses,
    call,
  });
  try {
    const { first, firstAudioAt, charge } = await chargedFirstAudio(request, stream, events, controller, {
      tokens,
      seconds,
      characters: tts.document.spokenCharacters,
      language,
      requestId: request.id,
      studio,
    });
    reply.hijack();
    const raw = reply.raw;
    // The charge stands only once the head and first audio are handed to the socket: a client
    // gone by then, or a first write that fails, gets it back (see `handFirstAudio`).
    let handed = false;
    if (!clientGone(raw, controller.signal)) {
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        ...stream.audioHeaders(firstAudioAt),
        'Cache-Control': 'no-store',
        ...billingHeaders(charge.billing),
      });
      handed = await handFirstAudio(raw, body.first(first.bytes), controller.signal);
    }
    // The ledger's seconds are the audio the client was given, whatever the charge was decided on.
    const recordHeard = async (seconds: number) => {
      if (charge.entry === null) return;
      await stream.billing
        .recordDuration(stream.accountId, request.id, seconds)
        .catch((error: unknown) => request.log.warn({ err: error }, 'stream duration not recorded'));
    };
    if (!handed) {
      await refundStream(request, stream, charge.entry, 'stream client left before its first audio byte');
      raw.destroy();
      await recordHeard(0);
      return;
    }
    metrics.firstAudio(path, engine, firstAudioAt - request.arrivedAt);
    const finish = async () => {
      await stream
        .finish?.()
        .catch((error: unknown) => request.log.warn({ err: error }, 'stream finish failed'));
    };
    const delivered = { seconds: first.seconds };
    const progress = recordProgress(() => delivered.seconds, recordHeard);
    const heard = await sendLaterAudio(raw, events, body, finish, delivered).catch(async (error: unknown) => {
      // Audio has started: no clean end of the chunked body, so the client knows it is incomplete.
      raw.destroy();
      if (error instanceof AudioBoundExceeded) {
        // Stopped at the input's audio bound: the request failed, and fails uncharged.
        await refundStream(request, stream, charge.entry, 'stream stopped at its audio bound');
      } else if (!controller.signal.aborted) {
        request.log.error({ err: error }, 'stream failed after audio began');
      }
      return undefined;
    });
    await progress.stop();
    if (heard !== undefined) metrics.audioDelivered(path, engine, heard);
    // A stream cut short (a hang-up, a failure, the audio bound) records the audio handed to the
    // connection before it stopped, not the estimate the charge was decided on.
    await recordHeard(heard ?? delivered.seconds);
  } finally {
    endCall();
    await events.return(undefined);
    call.close();
  }
}

/** How often a stream's ledger entry is brought up to the audio handed over so far. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Records `delivered()` every `PROGRESS_EVERY_MS` while a stream goes on, when it has grown, one
 * record at a time, so that a process killed mid-stream leaves its ledger entry at most a couple
 * of seconds short of the audio handed over, not at the bound its charge was decided on. `stop`
 * ends the records and waits for the one under way; the stream's final record follows it.
 */
function recordProgress(
  delivered: () => number,
  record: (seconds: number) => Promise<void>,
): { stop(): Promise<void> } {
  let recorded = 0;
  let under: Promise<void> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    const seconds = delivered();
    if (busy || seconds <= recorded) return;
    busy = true;
    recorded = seconds;
    under = record(seconds).finally(() => {
      busy = false;
    });
  }, PROGRESS_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await under;
    },
  };
}

/**
 * The stream's first audio and the charge that covers it. When a worker took the first clause at
 * once, the charge is committed while the engine speaks it, so the ledger's write (with SQLite, a
 * flush to disk) does not come before the first byte; a charge so committed for a stream that
 * then gives no audio (an engine failure, a client gone, nothing to say) is reversed by a ledger
 * entry. When the first clause waits for a worker (a burst), the charge is committed once its
 * audio is ready: the request thread's flushes would otherwise come first for every caller and
 * hold back the messages that give the workers their next clauses (a burst of 64 fresh calls,
 * first byte p95 1.06x with every charge committed early).
 */
async function chargedFirstAudio(
  request: FastifyRequest,
  stream: BilledStream,
  events: AsyncGenerator<SynthesisEvent>,
  controller: AbortController,
  charging: ChargeRequest,
): Promise<{ first: AudioEvent; firstAudioAt: number; charge: CommittedCharge }> {
  let firstAudioAt = Number.NaN;
  const next = events.next().then((result) => {
    firstAudioAt = performance.now();
    return result;
  });
  // Awaited below, after the charge when it goes first; until then its failure must not go unhandled.
  next.catch(() => undefined);
  const early = stream.pool.dueJobWaiting ? undefined : await commitOrStop(stream, charging, controller);
  let first: IteratorResult<SynthesisEvent>;
  try {
    first = await next;
    if (first.done || first.value.type !== 'audio') throw nothingToSay();
  } catch (error) {
    if (early) await refundStream(request, stream, early.entry, 'stream gave no first audio');
    throw error;
  }
  const charge = early ?? (await commitOrStop(stream, charging, controller));
  return { first: first.value, firstAudioAt, charge };
}

type AudioEvent = Extract<SynthesisEvent, { type: 'audio' }>;
type CommittedCharge = Extract<CommitChargeResult, { ok: true }>;

/** Commits the stream's charge; a refused or failed commit stops the synthesis and is thrown. */
async function commitOrStop(
  stream: BilledStream,
  charging: ChargeRequest,
  controller: AbortController,
): Promise<CommittedCharge> {
  let charge: CommitChargeResult;
  try {
    charge = await stream.billing.commitCharge(stream.accountId, charging);
  } catch (error) {
    controller.abort(error);
    throw error;
  }
  if (charge.ok) return charge;
  controller.abort(new Error('charge refused'));
  throw refusalError(charge, stream.accountGone, stream.supportEmail);
}

/**
 * Whether the client is known to be gone before anything is written: the connection closed, or
 * the client's FIN was read (the server then ends its side, so the socket is no longer writable
 * and a write would be held back, never sent). A FIN not yet read cannot be seen here.
 */
function clientGone(raw: FastifyReply['raw'], signal: AbortSignal): boolean {
  const socket = raw.socket;
  return signal.aborted || raw.destroyed || socket === null || socket.destroyed || !socket.writable;
}

/**
 * Writes the head and the first audio, and resolves whether they reached a client that was still
 * there. What "not delivered" can be known as: the write's callback reports an error (the peer
 * reset the connection), the response closes or the client goes before that callback (which Node
 * calls once the bytes are in the kernel's send buffer), or, by the event loop's next poll after
 * it, a reset: read as an error (a client that closed with the audio unread), or found behind a
 * FIN by `probeReset` (a client whose socket was closed before the audio reached it: its kernel
 * answered the audio with a reset). A FIN with no reset behind it is a client that read the audio
 * and hung up, or one that half-closed and reads on: the charge stands. On loopback or a local
 * proxy the reset comes back within the write; across a network it comes a round trip later,
 * after the poll, and the charge stands (a hang-up that crossed the audio in flight cannot be told
 * from one that heard it). Call it only when `clientGone` is false: on a closed or ended socket
 * Node drops the write and never calls back.
 */
function handFirstAudio(raw: FastifyReply['raw'], bytes: Uint8Array, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = raw.socket;
    let probing: Promise<boolean> | undefined;
    const gone = () => settle(false);
    // Runs before Node's own handler, which ends the server's half and would hide the reset.
    const onFin = () => {
      probing = probeReset(socket);
    };
    const settle = (handed: boolean) => {
      raw.off('close', gone);
      signal.removeEventListener('abort', gone);
      socket?.off('error', gone);
      socket?.off('end', onFin);
      resolve(handed);
    };
    raw.once('close', gone);
    signal.addEventListener('abort', gone, { once: true });
    raw.write(bytes, (error) => {
      if (error !== undefined && error !== null) return settle(false);
      // From here a close is no sign: a client that read the audio and hung up at once closes
      // too. A reset is (read as an error), and a FIN is asked whether a reset followed it.
      raw.off('close', gone);
      signal.removeEventListener('abort', gone);
      socket?.once('error', gone);
      socket?.prependOnceListener('end', onFin);
      pollSockets()
        .then(() => probing ?? true)
        .then((open) => settle(open && (socket?.errored === null || socket?.errored === undefined)));
    });
  });
}

/**
 * Whether a connection whose FIN was just read still takes writes: a write of no bytes reaches
 * the kernel, which refuses it when the peer answered the audio with a reset (a client whose
 * socket was closed when the audio came), and takes it when the peer only half-closed, or read
 * the audio and then closed (nothing was sent after that for it to reset).
 */
function probeReset(socket: FastifyReply['raw']['socket']): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket === null || !socket.writable) return resolve(false);
    socket.write(new Uint8Array(0), (error) => resolve(error === undefined || error === null));
  });
}

/** Resolves after the event loop's next poll of the sockets (two turns of its check phase). */
function pollSockets(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Gives back the charge of a stream that failed uncharged (its client left before the first
 * audio was handed over, or it reached its audio bound), and logs `why` (never the text). Studio
 * Kinyarwanda wrote no entry and has nothing to give back. A refund that cannot be written is
 * logged as an error with what an operator needs to redo it.
 */
async function refundStream(
  request: FastifyRequest,
  stream: BilledStream,
  charged: LedgerEntry | null,
  why: string,
): Promise<void> {
  if (charged === null) return;
  const where = { accountId: stream.accountId, charged: charged.kind, tokens: -charged.tokens };
  try {
    const refund = await stream.billing.refundCharge(stream.accountId, request.id);
    if (refund.ok) {
      request.log.info({ ...where, refund: refund.entry.id }, `${why}: charge refunded`);
    } else {
      request.log.error({ ...where, code: refund.code }, 'stream charge could not be refunded');
    }
  } catch (error) {
    request.log.error({ ...where, err: error }, 'stream charge could not be refunded');
  }
}
