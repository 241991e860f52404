import { randomInt } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from '../runtime/typescript-worker.ts';
import type { CompressedFormat } from './compressed-formats.ts';
import type { FromEncoder, ToEncoder } from './encoding-protocol.ts';

/**
 * One stream's encoder on an encoding thread: PCM (16-bit little-endian, mono, at the rate it was
 * opened for) in, the format's bytes out as they are ready. Calls are answered in order. `end` or
 * `drop` must be called once the stream is over, or the thread keeps its encoder.
 */
export interface EncodingStream {
  encode(pcm: Uint8Array): Promise<Uint8Array>;
  end(): Promise<Uint8Array>;
  drop(): void;
}

/**
 * The PCM a stream keeps so that it can be encoded again on a new thread if its thread dies: its
 * first 5 s at 24 kHz (240 KB), as much as most replies hold. A longer stream lets go of it and
 * ends with an error should its thread die: a thread's death is rare, and every open stream
 * keeping a minute (2.9 MB) made a hundred minute-long MP3 streams hold 290 MB for it.
 */
export const MAX_REPLAY_SECONDS = 5;
const MAX_REPLAY_BYTES = MAX_REPLAY_SECONDS * 24_000 * 2;

/** The name in an encoding thread's title. */
export const ENCODING_THREAD_NAME = 'ijwi-encoding';

interface Pending {
  readonly stream: Stream;
  /** Already answered before the thread died: the answer of its replay is not wanted. */
  readonly replayed: boolean;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  /** Streams open on it: a new stream goes to the thread with fewest. */
  readonly streams: Set<Stream>;
  /** Requests sent to it and not answered, in the order sent (the order it handles them). */
  readonly pending: Map<number, Pending>;
}

interface Stream {
  readonly id: number;
  /** The `open` message, with the Ogg serial number, so a replay makes the same bytes. */
  readonly open: Extract<ToEncoder, { type: 'open' }>;
  thread: Thread;
  /** Every request sent, in order, while the stream can still be replayed. */
  readonly sent: Extract<ToEncoder, { type: 'encode' | 'end' }>[];
  sentBytes: number;
  /** Set when the stream has failed: every later request fails with it. */
  failed: Error | undefined;
  /** `end` or `drop` was called: no more requests. */
  closed: boolean;
  /** The `end` request: once it is answered, the stream leaves its thread. */
  endRequest: number | undefined;
}

/**
 * The threads that run the compressed-format encoders (MP3, Ogg Opus, FLAC). Encoding costs
 * milliseconds per second of audio (`npm run bench -- --only formats`), more than espeak-ng spends
 * making it: on the thread that answers requests it would hold back other calls' first audio.
 * Each stream stays on one thread, since its encoder keeps state. The threads start when the
 * first stream opens, so a service whose clients never ask for a compressed format holds none;
 * a stream's messages wait in its thread's queue while the thread starts.
 *
 * A thread that dies (an encoder that brought it down, a crash, a kill) is replaced at once. The
 * stream whose request it was handling is taken for the cause and fails; every other stream that
 * was on it is encoded again from its first PCM on a live thread (encoders are deterministic, the
 * Ogg serial number is the stream's own), its answers already given are dropped and the rest
 * answered, so it goes on byte for byte as if nothing happened. Only a stream longer than
 * `MAX_REPLAY_BYTES` of PCM fails with it.
 */
export class EncodingThreads {
  readonly #size: number;
  readonly #threads: Thread[] = [];
  #nextStream = 1;
  #nextRequest = 1;
  #closed = false;

  /** Up to `size` threads, started when streams first need them. */
  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error('encoding threads: size must be a positive integer');
    this.#size = size;
  }

  /** Threads running now (for a bench or a fault drill to find them). */
  get threads(): number {
    return this.#threads.length;
  }

  /**
   * Opens a stream of `format` on the least busy thread, for PCM at `inputRate` (by default the
   * format's own rate; one the codec does not take is resampled on the thread).
   */
  open(format: CompressedFormat, inputRate: number = format.sampleRate): EncodingStream {
    const id = this.#nextStream++;
    const stream: Stream = {
      id,
      open: {
        type: 'open',
        stream: id,
        format: format.name,
        sampleRate: inputRate,
        serial: randomInt(2 ** 32),
      },
      thread: this.#leastBusy(),
      sent: [],
      sentBytes: 0,
      failed: undefined,
      closed: false,
      endRequest: undefined,
    };
    stream.thread.streams.add(stream);
    stream.thread.worker.postMessage(stream.open);
    const ask = (message: (request: number) => Extract<ToEncoder, { type: 'encode' | 'end' }>) => {
      if (stream.failed) return Promise.reject(stream.failed);
      if (stream.closed) return Promise.reject(new Error('the encoding stream is over'));
      const sent = message(this.#nextRequest++);
      return new Promise<Uint8Array>((resolve, reject) => {
        stream.thread.pending.set(sent.request, { stream, replayed: false, resolve, reject });
        this.#keep(stream, sent);
        stream.thread.worker.postMessage(sent);
      });
    };
    return {
      encode: (pcm) => ask((request) => ({ type: 'encode', stream: id, request, pcm })),
      end: () => {
        const last = ask((request) => {
          stream.endRequest = request;
          return { type: 'end', stream: id, request };
        });
        stream.closed = true;
        return last;
      },
      drop: () => {
        if (stream.closed) return;
        stream.closed = true;
        forget(stream);
        if (!stream.failed) stream.thread.worker.postMessage({ type: 'drop', stream: id });
      },
    };
  }

  /** Stops the threads; requests in flight fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error('the encoding threads are closed');
    const threads = this.#threads.splice(0);
    for (const thread of threads) {
      for (const pending of thread.pending.values()) pending.reject(error);
      for (const stream of thread.streams) stream.failed = error;
    }
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /** Keeps a request for a replay while the stream is short enough to be replayed. */
  #keep(stream: Stream, sent: Extract<ToEncoder, { type: 'encode' | 'end' }>): void {
    if (stream.sentBytes > MAX_REPLAY_BYTES) return;
    stream.sentBytes += sent.type === 'encode' ? sent.pcm.byteLength : 0;
    if (stream.sentBytes > MAX_REPLAY_BYTES) stream.sent.length = 0;
    else stream.sent.push(sent);
  }

  #leastBusy(): Thread {
    if (this.#closed) throw new Error('the encoding threads are closed');
    while (this.#threads.length < this.#size) this.#spawn();
    const thread = this.#threads.reduce<Thread | undefined>(
      (a, b) => (a && a.streams.size <= b.streams.size ? a : b),
      undefined,
    );
    if (!thread) throw new Error('the encoding threads are closed');
    return thread;
  }

  #spawn(): void {
    const worker = startTypeScriptWorker(
      new URL('./encoding-worker.ts', import.meta.url),
      undefined,
      ENCODING_THREAD_NAME,
    );
    const thread: Thread = { worker, streams: new Set(), pending: new Map() };
    this.#threads.push(thread);
    worker.on('message', (message: FromEncoder) => {
      const pending = thread.pending.get(message.request);
      if (!pending) return;
      thread.pending.delete(message.request);
      if (pending.stream.endRequest === message.request) forget(pending.stream);
      if (pending.replayed) return;
      if (message.type === 'bytes') pending.resolve(message.bytes);
      else pending.reject(new Error(message.message));
    });
    const onDeath = (error: Error) => {
      if (!this.#threads.includes(thread)) return;
      this.#threads.splice(this.#threads.indexOf(thread), 1);
      this.#recover(thread, error);
    };
    worker.on('error', onDeath);
    worker.on('exit', (code) => onDeath(new Error(`encoding thread exited with code ${code}`)));
  }

  /** Replaces a dead thread and moves its streams to live ones (see the class comment). */
  #recover(dead: Thread, error: Error): void {
    const lost = new Error('the encoding thread was lost', { cause: error });
    const pending = [...dead.pending.values()];
    const cause = pending[0]?.stream;
    const moving = this.#closed
      ? []
      : [...dead.streams].filter((stream) => stream !== cause && stream.sentBytes <= MAX_REPLAY_BYTES);
    for (const waiting of pending) if (!moving.includes(waiting.stream)) waiting.reject(lost);
    for (const stream of dead.streams) {
      if (moving.includes(stream)) continue;
      stream.failed = lost;
      forget(stream);
    }
    for (const stream of moving) {
      const thread = this.#leastBusy();
      stream.thread = thread;
      thread.streams.add(stream);
      thread.worker.postMessage(stream.open);
      for (const sent of stream.sent) {
        // What was answered before the thread died is made again and dropped; the rest is answered.
        const waiting = dead.pending.get(sent.request) ?? {
          stream,
          replayed: true,
          resolve() {},
          reject() {},
        };
        thread.pending.set(sent.request, waiting);
        thread.worker.postMessage(sent);
      }
    }
    dead.streams.clear();
    dead.pending.clear();
  }
}

/** A stream that is over (answered to its end, dropped, or failed) leaves its thread and its PCM. */
function forget(stream: Stream): void {
  stream.thread.streams.delete(stream);
  stream.sent.length = 0;
}
