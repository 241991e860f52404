import type { CallMetrics } from '../../calls/call-services.ts';
import type { LiveBill } from '../../calls/live-bill.ts';
import { billingRefusal } from '../../calls/stream-call.ts';
import { FRAME_MS } from '../../speech/audio/formats.ts';
import type { AccountClauses } from '../../speech/cache/clause-cache.ts';
import { firstForbiddenCharacter } from '../../speech/input/control-characters.ts';
import type { EnginePool, OpenCall } from '../../speech/pool/engine-pool.ts';
import { AudioBoundExceeded, synthesize } from '../../speech/synthesize.ts';
import type { Lexicon } from '../../speech/text/lexicon.ts';
import { LiveClauses } from '../../speech/text/live-clauses.ts';
import { codePointCount } from '../../unicode.ts';
import { ApiError, knownError, type RefusalContext, refusalError } from '../errors.ts';
import { type SpeechPart, type StreamSettings, speechPart } from '../tts-request.ts';
import type { ServerMessage } from './protocol.ts';

/** Why `ContextOutput.ready` rejects: the client closed, or stopped reading and was let go. */
export class ClientGone extends Error {}

/** Where a context's messages go: the connection's writer, shared by its contexts. */
export interface ContextOutput {
  /** Sends a message; false when the connection is closing and nothing went. */
  send(message: ServerMessage): boolean;
  /**
   * Sends a context's first audio; resolves whether it reached a client still there
   * (`first-delivery.ts`): false when nothing went, or the client was gone before it.
   */
  sendFirst(message: ServerMessage): Promise<boolean>;
  /**
   * Resolves when the client can take more (its socket buffer is under the high-water mark);
   * rejects with `ClientGone` when the socket is gone or the client has not read for too long.
   */
  ready(): Promise<void>;
}

export interface LiveContextOptions {
  readonly id: string;
  readonly pool: EnginePool;
  /** The context's call on its voice (`openLiveCall`), closed when the context finishes. */
  readonly call: OpenCall;
  readonly settings: StreamSettings;
  /** The account's lexicon for the context's language. */
  readonly lexicon: Lexicon;
  /** The account's clause cache (`ClauseCache.forAccount`); absent: none. */
  readonly clauses?: AccountClauses | undefined;
  readonly bill: LiveBill;
  readonly output: ContextOutput;
  /** Code points of text the context may receive in all (the stream endpoint's limit). */
  readonly maxChars: number;
  /** Audio is sent at most this far ahead of the listener's playback, in ms. */
  readonly leadMs: number;
  /** Called once when the context has finished: `done`, an error, or the connection closed. */
  readonly onFinished: () => void;
  /** How a refusal reads to the caller (an account gone since, the 402's contact). */
  readonly refusals: RefusalContext;
  /** Where the context, its first audio and the audio it sent are recorded. */
  readonly metrics: CallMetrics;
  /** Where a failure that is not the client's goes (a bug, an engine crash). */
  readonly log: (error: unknown) => void;
}

/** A part waiting to be spoken, and when the message that completed it arrived. */
/** A mark in the queue: every part before it has been spoken when it is reached. */
interface FlushMark {
  readonly flushed: number;
}

interface QueuedPart {
  readonly text: string;
  readonly completedAt: number;
}

/** Frames per `audio` message: 200 ms, so a barge-in never waits behind a long message. */
const FRAMES_PER_MESSAGE = 10;

/**
 * One live context: a stream request whose text arrives in pieces. Text is cut into parts as
 * clauses complete (`LiveClauses`); parts are spoken in order by the one pipeline (`synthesize`,
 * the pool's scheduling and cancellation), each billed by the context's `LiveBill` before its
 * first frame is sent. Audio is sent in whole frames, at most `leadMs` ahead of real time once
 * it has started and only while the client reads, so neither a fast engine nor a slow reader
 * makes the server hold more than a part. `clear` drops the waiting text and every frame not yet
 * sent, synchronously: the `cleared` message is sent before any later frame could be.
 */
export class LiveContext {
  readonly #options: LiveContextOptions;
  readonly #clauses = new LiveClauses();
  readonly #queue: (QueuedPart | FlushMark)[] = [];
  #flushes = 0;
  #received = 0;
  /** Bumped by `clear`: a part of an older generation never sends another frame. */
  #generation = 0;
  #abort = new AbortController();
  #running = false;
  #ending = false;
  #finished = false;
  #seq = 0;
  #bytesSent = 0;
  /** When the audio sent so far will have played, on `performance.now()`'s clock. */
  #playedUntil = 0;
  /** Ends the context's count among the calls in flight. */
  readonly #endCall: () => void;

  constructor(options: LiveContextOptions) {
    this.#options = options;
    this.#endCall = options.metrics.callStarted('live');
    options.bill.follow(() => this.#sentMs() / 1000);
  }

  /** Appends text; speaks each part it completes. Throws `ApiError` on text the context refuses. */
  text(text: string, at: number): void {
    const forbidden = firstForbiddenCharacter(text);
    if (forbidden) {
      throw new ApiError(
        'invalid_input',
        `text holds the control character ${forbidden.name} at position ${forbidden.position}; only tab, line feed and carriage return are allowed`,
        { param: 'text', details: { position: forbidden.position } },
      );
    }
    this.#received += codePointCount(text);
    if (this.#received > this.#options.maxChars) {
      throw new ApiError(
        'input_too_long',
        `the context has received ${this.#received} characters; the limit is ${this.#options.maxChars}`,
        { param: 'text' },
      );
    }
    // SSML is read whole: a `<speak>` document is spoken at flush or end only.
    if (this.#options.settings.textType === 'ssml') this.#clauses.hold(text);
    else this.#enqueue(this.#clauses.push(text), at);
  }

  /**
   * Speaks what is waiting now, boundary or not; once it has all been sent, `flushed` tells the
   * client (a protocol that reports flushes, such as Deepgram's, passes it on).
   */
  flush(at: number): void {
    this.#enqueue(this.#clauses.flush(), at);
    this.#queue.push({ flushed: ++this.#flushes });
    this.#pump();
  }

  /** No more text: speaks the rest, then `done`. */
  end(at: number): void {
    this.#enqueue(this.#clauses.flush(), at);
    this.#ending = true;
    this.#pump();
  }

  /** Barge-in: drops waiting text and unsent audio, then tells the client it is done. */
  clear(): void {
    this.#generation++;
    this.#clauses.clear();
    this.#queue.length = 0;
    this.#abort.abort(new Error('cleared'));
    this.#abort = new AbortController();
    // Nothing sent is still to play: the next part starts a fresh playback clock.
    this.#playedUntil = 0;
    this.#options.output.send({ type: 'cleared', context_id: this.#options.id });
  }

  /** The connection is gone or closing: stop at once, send nothing more. */
  abandon(): void {
    this.#generation++;
    this.#queue.length = 0;
    this.#abort.abort(new Error('connection closed'));
    this.#finish();
  }

  /** Ends the context with an error message; audio already sent stands, a charge for none is given back. */
  fail(error: ApiError): void {
    if (this.#finished) return;
    this.#generation++;
    this.#queue.length = 0;
    this.#abort.abort(error);
    this.#options.output.send({
      type: 'error',
      context_id: this.#options.id,
      code: error.code as Extract<ServerMessage, { type: 'error' }>['code'],
      message: error.message,
      param: error.options.param ?? null,
      ...error.options.details,
    });
    this.#finish();
  }

  #enqueue(parts: readonly string[], at: number): void {
    for (const text of parts) this.#queue.push({ text, completedAt: at });
    this.#pump();
  }

  #pump(): void {
    if (this.#running || this.#finished) return;
    this.#running = true;
    void this.#run();
  }

  async #run(): Promise<void> {
    try {
      for (let part = this.#queue.shift(); part !== undefined; part = this.#queue.shift()) {
        if ('flushed' in part) {
          this.#options.output.send({
            type: 'flushed',
            context_id: this.#options.id,
            sequence: part.flushed,
          });
          continue;
        }
        await this.#speak(part, this.#generation);
        if (this.#finished) return;
      }
      if (this.#ending && !this.#finished) await this.#done();
    } catch (error) {
      if (this.#finished) return;
      // A hang-up read by the writer before the socket's close event: the client's doing, not a failure.
      if (error instanceof ClientGone) return this.abandon();
      if (!(error instanceof ApiError || error instanceof AudioBoundExceeded)) this.#options.log(error);
      this.fail(asApiError(error));
    } finally {
      // In the same step as the empty queue was seen: a part queued after it starts a new run,
      // where a flag cleared a tick later would leave that part waiting for the next message.
      this.#running = false;
    }
  }

  async #speak(queued: QueuedPart, generation: number): Promise<void> {
    const part = speechPart(queued.text, this.#options.settings, this.#options.lexicon);
    if (part === undefined) return;
    const signal = this.#abort.signal;
    const { settings } = this.#options;
    const events = synthesize(this.#options.pool, {
      document: part.document,
      voice: settings.voice,
      target: { kind: 'stream', format: settings.format },
      maxSeconds: part.maxSeconds,
      signal,
      dueAt: Math.max(performance.now(), this.#playedUntil - this.#options.leadMs),
      words: true,
      call: this.#options.call,
      clauses: this.#options.clauses,
    });
    // Word times count from the context's first sample: this part starts after the audio sent so far.
    const offsetMs = this.#sentMs();
    let billed = false;
    try {
      for await (const event of events) {
        if (generation !== this.#generation) return;
        if (event.type === 'words') {
          this.#options.output.send({
            type: 'words',
            context_id: this.#options.id,
            words: event.words.map((w) => ({
              text: w.text,
              start_ms: Math.round(offsetMs + w.startMs),
              end_ms: Math.round(offsetMs + w.endMs),
            })),
          });
        }
        if (event.type !== 'audio') continue;
        if (!billed) {
          await this.#cover(part);
          billed = true;
          if (generation !== this.#generation) return;
        }
        await this.#sendAudio(event.bytes, generation, queued.completedAt);
        if (generation !== this.#generation) return;
      }
    } catch (error) {
      // A clear or a closed connection stops synthesis by aborting it: not a failure of the context.
      if (signal.aborted && generation !== this.#generation) return;
      throw error;
    }
  }

  async #cover(part: SpeechPart): Promise<void> {
    const result = await this.#options.bill.cover({
      characters: part.document.spokenCharacters,
      maxSeconds: part.maxSeconds,
      sentBefore: this.#sentMs() / 1000,
    });
    if (!result.ok) throw refusalError(billingRefusal(result), this.#options.refusals);
  }

  /** Whole frames in messages of at most 200 ms, paced to the listener and to the socket. */
  async #sendAudio(bytes: Uint8Array, generation: number, completedAt: number): Promise<void> {
    const { format } = this.#options.settings;
    const step = format.bytesPerFrame * FRAMES_PER_MESSAGE;
    for (let offset = 0; offset < bytes.byteLength; offset += step) {
      const audio = bytes.subarray(offset, offset + step);
      await this.#options.output.ready();
      const wait = this.#playedUntil - this.#options.leadMs - performance.now();
      if (wait > 0) await sleep(wait, this.#abort.signal);
      if (generation !== this.#generation || this.#finished) return;
      const now = performance.now();
      const first = this.#seq === 0;
      const message: ServerMessage = {
        type: 'audio',
        context_id: this.#options.id,
        seq: this.#seq++,
        audio: Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength).toString('base64'),
        ...(first ? { ttfa_ms: Math.round(now - completedAt) } : {}),
      };
      // The client began to close, or was gone before the first frame: what was not sent, or not
      // delivered, counts for nothing. Nothing follows the first frame until its verdict is in, so
      // a client that read it and hung up leaves nothing unread to reset the connection with.
      const sent = first ? await this.#handFirst(message) : this.#options.output.send(message);
      if (!sent) return;
      if (first) this.#options.metrics.firstAudio('live', this.#engine(), now - completedAt);
      const ms = (audio.byteLength / format.bytesPerFrame) * FRAME_MS;
      this.#playedUntil = Math.max(this.#playedUntil, now) + ms;
      this.#bytesSent += audio.byteLength;
    }
  }

  /** Sends the first frame; its delivery decides the first part's charge (`LiveBill`). */
  #handFirst(message: ServerMessage): Promise<boolean> {
    const delivered = this.#options.output.sendFirst(message);
    this.#options.bill.firstFrameHanded(delivered);
    return delivered;
  }

  #engine() {
    return this.#options.settings.voice.engineVoice.engine;
  }

  /** Milliseconds of audio sent so far. */
  #sentMs(): number {
    return (this.#bytesSent / this.#options.settings.format.bytesPerFrame) * FRAME_MS;
  }

  async #done(): Promise<void> {
    const billing = (await this.#options.bill.summary()) ?? null;
    if (this.#finished) return;
    this.#options.output.send({
      type: 'done',
      context_id: this.#options.id,
      seconds: Math.round(this.#sentMs() / 10) / 100,
      characters: this.#options.bill.characters,
      billing,
    });
    this.#finish();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#options.call.close();
    this.#endCall();
    this.#options.metrics.audioDelivered('live', this.#engine(), this.#sentMs() / 1000);
    // The bill gives back a charge whose audio no client had, and records what the client was
    // sent, not the bounds the parts were charged on.
    this.#options.bill.end(this.#sentMs() / 1000).catch((error: unknown) => this.#options.log(error));
    this.#options.onFinished();
  }
}

/** A failure as the error message the client gets: a 5xx never carries internal details. */
function asApiError(error: unknown): ApiError {
  // The ledger unreachable when a part's charge commits: an outage the client retries, as on HTTP.
  const known = knownError(error);
  if (known) return known;
  if (error instanceof AudioBoundExceeded)
    return new ApiError('input_too_long', 'the text would give more audio than its length allows', {
      param: 'text',
    });
  return new ApiError('internal_error', 'synthesis failed; the context has ended');
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
