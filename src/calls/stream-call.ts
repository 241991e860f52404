import {
  type BillingOutcome,
  type ChargeRequest,
  type CommitChargeResult,
  type PrecheckResult,
  tokensFor,
} from '../accounts/billing.ts';
import type { LedgerEntry } from '../accounts/repositories.ts';
import type { SpeechDocument } from '../speech/input/document.ts';
import {
  AudioBoundExceeded,
  type AudioTarget,
  type SynthesisEvent,
  synthesize,
} from '../speech/synthesize.ts';
import type { Voice } from '../speech/voices/voices.ts';
import { openVoice, readyPool } from './admission.ts';
import type { CallLog, CallServices, SpeechPath } from './call-services.ts';
import { recordProgress } from './ledger-progress.ts';
import { type CallRefusal, type CallResult, refused, refusingOutages } from './refusal.ts';

/** What a call speaks: the document, in which voice, under which audio bound. */
export interface SpeechRequest {
  readonly document: SpeechDocument;
  readonly voice: Voice;
  /** The most audio the input may produce (`audio-bound.ts`): the cap synthesis runs under. */
  readonly maxSeconds: number;
}

/** One billed stream: who pays, what to say, in what audio. */
export interface StreamCall {
  readonly accountId: string;
  /** The request id: the ledger's key, charged at most once. */
  readonly requestId: string;
  readonly speech: SpeechRequest;
  readonly target: AudioTarget;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
  readonly path: SpeechPath;
  /** When the request arrived, on `performance.now()`'s clock: the origin of its first-audio time. */
  readonly arrivedAt: number;
  /** Word timings as `words` events after each clause's audio, for a transport that carries them. */
  readonly words?: boolean;
}

/** The first audio, and when it was ready. */
export interface FirstAudio {
  readonly audio: Extract<SynthesisEvent, { type: 'audio' }>;
  readonly readyAt: number;
}

/** How a transport hands a stream's audio to its client: the only part of a call that knows it. */
export interface StreamDelivery {
  /** Aborted when the client goes: synthesis stops, and a charge not yet delivered is given back. */
  readonly signal: AbortSignal;
  /**
   * Hands the first audio, with the outcome of the charge that covers it, to the client; resolves
   * whether it reached a client still there (the rule of `README.md`: a reset or a close seen by
   * the next poll of the sockets means not delivered).
   */
  handFirst(first: FirstAudio, billing: BillingOutcome): Promise<boolean>;
  /**
   * Sends the rest of the audio as it comes and ends the stream cleanly; resolves the audio's
   * seconds. `delivered.seconds` grows by what the transport has taken, starting at the first's.
   */
  sendRest(events: AsyncIterator<SynthesisEvent>, delivered: { seconds: number }): Promise<number>;
  /** Ends the stream without a clean end, so that the client knows its audio is incomplete. */
  cut(): void;
}

/**
 * Speaks `call` to `delivery`, billed by the charge rule of `README.md`: refused early what billing
 * would surely refuse, charged while the engine makes the first audio (or once it is ready, when
 * the first clause waits for a worker) and before any byte leaves, given back when no audio reaches
 * the client or the stream stops at its audio bound, and recorded as the seconds delivered. A
 * refusal before the first audio is returned; after it, the stream is cut and the outcome logged.
 */
export async function speakStream(
  services: CallServices,
  call: StreamCall,
  delivery: StreamDelivery,
  log: CallLog,
): Promise<CallResult<object>> {
  return refusingOutages(log, () => billedStream(services, call, delivery, log));
}

async function billedStream(
  services: CallServices,
  call: StreamCall,
  delivery: StreamDelivery,
  log: CallLog,
): Promise<CallResult<object>> {
  const { speech, studio } = call;
  const ready = readyPool(services.pool);
  if (!ready.ok) return ready;
  const pool = ready.pool;
  const language = speech.voice.language;
  // Free use is decided before synthesis, on the most audio the input can produce (its bound,
  // which synthesis also enforces), so a free generation never delivers 120 s or more.
  const charging: ChargeRequest = {
    tokens: tokensFor(speech.document.spokenCharacters, services.charsPerToken),
    seconds: speech.maxSeconds,
    characters: speech.document.spokenCharacters,
    language,
    requestId: call.requestId,
    studio,
  };
  const precheck = await services.billing.precheck(call.accountId, charging.tokens, charging.seconds, {
    studio,
    language,
  });
  if (!precheck.ok) return refused(billingRefusal(precheck));
  // Admitted before anything is charged: a voice at its call limit is a refusal that costs nothing.
  const opened = openVoice(pool, speech.voice);
  if (!opened.ok) return opened;
  const open = opened.call;
  const controller = new AbortController();
  const stop = () => controller.abort(delivery.signal.reason);
  if (delivery.signal.aborted) stop();
  else delivery.signal.addEventListener('abort', stop, { once: true });
  const endCall = services.metrics.callStarted(call.path);
  const events = synthesize(pool, {
    document: speech.document,
    voice: speech.voice,
    target: call.target,
    maxSeconds: speech.maxSeconds,
    signal: controller.signal,
    clauses: services.clauseCache?.forAccount(call.accountId),
    call: open,
    ...(call.words ? { words: true } : {}),
  });
  const ledger = new StreamLedger(services, call, log);
  try {
    const charged = await chargedFirstAudio(services, events, controller, charging, ledger);
    if (!charged.ok) return charged;
    const { first, charge } = charged;
    ledger.entry = charge.entry;
    if (!(await delivery.handFirst(first, charge.billing))) {
      await ledger.refund('stream client left before its first audio byte');
      delivery.cut();
      await ledger.record(0);
      return { ok: true };
    }
    const engine = speech.voice.engineVoice.engine;
    services.metrics.firstAudio(call.path, engine, first.readyAt - call.arrivedAt);
    const delivered = { seconds: first.audio.seconds };
    const progress = recordProgress(
      () => delivered.seconds,
      (seconds) => ledger.record(seconds),
    );
    const heard = await delivery.sendRest(events, delivered).catch(async (error: unknown) => {
      // Audio has started: no clean end, so the client knows it is incomplete.
      delivery.cut();
      if (error instanceof AudioBoundExceeded) {
        // Stopped at the input's audio bound: the request failed, and fails uncharged.
        await ledger.refund('stream stopped at its audio bound');
      } else if (!controller.signal.aborted) {
        log.error({ err: error }, 'stream failed after audio began');
      }
      return undefined;
    });
    await progress.stop();
    if (heard !== undefined) services.metrics.audioDelivered(call.path, engine, heard);
    // A stream cut short (a hang-up, a failure, the audio bound) records the audio handed over
    // before it stopped, not the estimate the charge was decided on.
    await ledger.record(heard ?? delivered.seconds);
    return { ok: true };
  } finally {
    delivery.signal.removeEventListener('abort', stop);
    endCall();
    await events.return(undefined);
    open.close();
  }
}

/** A refusal of billing's as the call's. */
export function billingRefusal(
  refusal: Exclude<PrecheckResult | CommitChargeResult, { ok: true }>,
): CallRefusal {
  switch (refusal.code) {
    case 'insufficient_tokens':
      return refusal;
    case 'account_not_found':
      return { code: 'account_gone' };
    case 'duplicate_request':
      throw new Error('a request id was charged twice');
  }
}

type CommittedCharge = Extract<CommitChargeResult, { ok: true }>;

/**
 * The stream's first audio and the charge that covers it. When a worker took the first clause at
 * once, the charge is committed while the engine speaks it, so the ledger's write (with SQLite, a
 * flush to disk) does not come before the first byte; a charge so committed for a stream that
 * then gives no audio (an engine failure, a client gone, nothing to say) is reversed. When the
 * first clause waits for a worker (a burst), the charge is committed once its audio is ready: the
 * request thread's flushes would otherwise come first for every caller and hold back the messages
 * that give the workers their next clauses (a burst of 64 fresh calls, first byte p95 1.06x with
 * every charge committed early).
 */
async function chargedFirstAudio(
  services: CallServices,
  events: AsyncGenerator<SynthesisEvent>,
  controller: AbortController,
  charging: ChargeRequest,
  ledger: StreamLedger,
): Promise<CallResult<{ readonly first: FirstAudio; readonly charge: CommittedCharge }>> {
  let readyAt = Number.NaN;
  const next = events.next().then((result) => {
    readyAt = performance.now();
    return result;
  });
  // Awaited below, after the charge when it goes first; until then its failure must not go unhandled.
  next.catch(() => undefined);
  const pool = services.pool();
  const early = pool?.dueJobWaiting
    ? undefined
    : await commitOrStop(services, ledger.accountId, charging, controller);
  if (early && !early.ok) return early;
  let first: IteratorResult<SynthesisEvent>;
  try {
    first = await next;
  } catch (error) {
    if (early) await ledger.refundEntry(early.charge.entry, 'stream gave no first audio');
    throw error;
  }
  if (first.done || first.value.type !== 'audio') {
    if (early) await ledger.refundEntry(early.charge.entry, 'stream gave no first audio');
    return refused({ code: 'nothing_to_say' });
  }
  const charge = early ?? (await commitOrStop(services, ledger.accountId, charging, controller));
  if (!charge.ok) return charge;
  return { ok: true, first: { audio: first.value, readyAt }, charge: charge.charge };
}

/** Commits the stream's charge; a refused or failed commit stops the synthesis. */
async function commitOrStop(
  services: CallServices,
  accountId: string,
  charging: ChargeRequest,
  controller: AbortController,
): Promise<CallResult<{ readonly charge: CommittedCharge }>> {
  let charge: CommitChargeResult;
  try {
    charge = await services.billing.commitCharge(accountId, charging);
  } catch (error) {
    controller.abort(error);
    throw error;
  }
  if (charge.ok) return { ok: true, charge };
  controller.abort(new Error('charge refused'));
  return refused(billingRefusal(charge));
}

/**
 * A stream's ledger entry once charged: its reversal and the seconds it stands for. Studio
 * Kinyarwanda writes no entry and has nothing to give back or record. A write that fails is
 * logged with what an operator needs to redo it, never thrown into the stream.
 */
class StreamLedger {
  entry: LedgerEntry | null = null;
  readonly #services: CallServices;
  readonly #call: StreamCall;
  readonly #log: CallLog;

  constructor(services: CallServices, call: StreamCall, log: CallLog) {
    this.#services = services;
    this.#call = call;
    this.#log = log;
  }

  get accountId(): string {
    return this.#call.accountId;
  }

  /** Gives back the stream's charge, logging `why` (never the text). */
  refund(why: string): Promise<void> {
    return this.refundEntry(this.entry, why);
  }

  async refundEntry(charged: LedgerEntry | null, why: string): Promise<void> {
    if (charged === null) return;
    const { accountId, requestId } = this.#call;
    const where = { accountId, charged: charged.kind, tokens: -charged.tokens };
    try {
      const refund = await this.#services.billing.refundCharge(accountId, requestId);
      if (refund.ok) this.#log.info({ ...where, refund: refund.entry.id }, `${why}: charge refunded`);
      else this.#log.error({ ...where, code: refund.code }, 'stream charge could not be refunded');
    } catch (error) {
      this.#log.error({ ...where, err: error }, 'stream charge could not be refunded');
    }
  }

  /** The ledger's seconds: the audio the client was given, whatever the charge was decided on. */
  async record(seconds: number): Promise<void> {
    if (this.entry === null) return;
    await this.#services.billing
      .recordDuration(this.#call.accountId, this.#call.requestId, seconds)
      .catch((error: unknown) => this.#log.warn({ err: error }, 'stream duration not recorded'));
  }
}
