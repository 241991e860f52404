import type { Worker } from 'node:worker_threads';
import { startTypeScriptWorker } from '../typescript-worker.ts';
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

interface Thread {
  readonly worker: Worker;
  /** Streams open on it: a new stream goes to the thread with fewest. */
  open: number;
}

interface Pending {
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

/**
 * The threads that run the compressed-format encoders (MP3, Ogg Opus, FLAC). Encoding costs
 * milliseconds per second of audio (`npm run bench -- --only formats`), more than espeak-ng spends
 * making it: on the thread that answers requests it would hold back other calls' first audio.
 * Each stream stays on one thread, since its encoder keeps state. The threads start when the
 * first stream opens, so a service whose clients never ask for a compressed format holds none;
 * a stream's messages wait in its thread's queue while the thread starts.
 */
export class EncodingThreads {
  readonly #size: number;
  readonly #threads: Thread[] = [];
  readonly #pending = new Map<number, Pending>();
  #nextStream = 1;
  #nextRequest = 1;
  #closed = false;

  /** Up to `size` threads, started when streams first need them. */
  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error('encoding threads: size must be a positive integer');
    this.#size = size;
  }

  /**
   * Opens a stream of `format` on the least busy thread, for PCM at `inputRate` (by default the
   * format's own rate; one the codec does not take is resampled on the thread).
   */
  open(format: CompressedFormat, inputRate: number = format.sampleRate): EncodingStream {
    if (this.#closed) throw new Error('the encoding threads are closed');
    while (this.#threads.length < this.#size) this.#spawn();
    const thread = this.#threads.reduce<Thread | undefined>(
      (a, b) => (a && a.open <= b.open ? a : b),
      undefined,
    );
    if (!thread) throw new Error('the encoding threads are closed');
    const stream = this.#nextStream++;
    thread.open++;
    let open = true;
    const finish = () => {
      if (open) thread.open--;
      open = false;
    };
    const send = (message: ToEncoder) => thread.worker.postMessage(message);
    send({ type: 'open', stream, format: format.name, sampleRate: inputRate });
    const ask = (message: (request: number) => ToEncoder): Promise<Uint8Array> => {
      if (!open) return Promise.reject(new Error('the encoding stream is over'));
      const request = this.#nextRequest++;
      return new Promise((resolve, reject) => {
        this.#pending.set(request, { resolve, reject });
        send(message(request));
      });
    };
    return {
      encode: (pcm) => ask((request) => ({ type: 'encode', stream, request, pcm })),
      end: () => {
        const last = ask((request) => ({ type: 'end', stream, request }));
        finish();
        return last;
      },
      drop: () => {
        if (!open) return;
        finish();
        send({ type: 'drop', stream });
      },
    };
  }

  /** Stops the threads; requests in flight fail. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#failAll(new Error('the encoding threads are closed'));
    await Promise.all(this.#threads.map((thread) => thread.worker.terminate()));
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #spawn(): void {
    const worker = startTypeScriptWorker(new URL('./encoding-worker.ts', import.meta.url), undefined);
    const thread: Thread = { worker, open: 0 };
    this.#threads.push(thread);
    worker.on('message', (message: FromEncoder) => {
      const pending = this.#pending.get(message.request);
      if (!pending) return;
      this.#pending.delete(message.request);
      if (message.type === 'bytes') pending.resolve(message.bytes);
      else pending.reject(new Error(message.message));
    });
    const onDeath = (error: Error) => {
      if (!this.#threads.includes(thread)) return;
      this.#threads.splice(this.#threads.indexOf(thread), 1);
      // Requests of the lost thread's streams cannot be told apart here: all in flight fail. The
      // next stream starts a thread again.
      this.#failAll(error);
    };
    worker.on('error', onDeath);
    worker.on('exit', (code) => onDeath(new Error(`encoding thread exited with code ${code}`)));
  }
}
