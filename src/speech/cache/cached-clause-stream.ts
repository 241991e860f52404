import type { EngineWord } from '../engines/engine.ts';

/** One clause's audio as the pool delivered it. */
export interface CachedClause {
  /** The clause's encoded audio, whole. Never written to: hits are given copies of it. */
  readonly audio: Uint8Array;
  /** Where each of the pool's parts ended, so a hit is delivered in parts of the same sizes. */
  readonly partEnds: readonly number[];
  /** The engine's word events for the clause; undefined for an engine that reports none. */
  readonly words: readonly EngineWord[] | undefined;
}

/**
 * A cached clause as the pipeline reads a clause from the pool: the same bytes in parts of the
 * same sizes (so a transport's first write is no larger than for a fresh clause), each a copy
 * that the reader may keep, transfer or change without touching the cache. Aborting `signal`
 * fails it with the signal's reason, as it fails a pool job.
 */
export async function* replayClause(
  clause: CachedClause,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<Uint8Array> {
  let from = 0;
  for (const end of clause.partEnds) {
    signal?.throwIfAborted();
    yield clause.audio.slice(from, end);
    from = end;
  }
}

/** How a clause's audio is made: the pool job, cancelled by `signal`, reporting its words. */
export type ClauseJob = (
  signal: AbortSignal,
  onWords: (words: readonly EngineWord[]) => void,
) => AsyncIterableIterator<Uint8Array>;

/** What one reader of a shared clause is given. */
export interface ClauseReader {
  /** The reader's own signal: aborting it fails its reads with its reason and makes it leave. */
  readonly signal?: AbortSignal | undefined;
  /** Copies of the parts, for a reader that joined another's clause (its bytes are not its own). */
  readonly copies: boolean;
  /** Called with the clause's words once the reader has had the whole clause. */
  readonly words: (words: readonly EngineWord[] | undefined) => void;
}

/**
 * One clause being spoken, read by every request that asks for the same clause of the same
 * account meanwhile (a cold burst of calls opening with the same greeting): the pool speaks it
 * once, each reader gets every part from the first, at its own pace. The pool job runs as long as
 * one reader is left: when the last one leaves (cancelled, failed, or closed before the end), the
 * job is cancelled. Once the job has ended on its own the clause is given to `keep` whole (never
 * one cancelled, failed or cut short: a job the pool interrupted and resumed delivers its clause
 * whole, without repeats, see `pool/protocol.ts`), and `settled` is called once, when a new
 * reader can no longer join (the job ended, failed or was cancelled).
 */
export class SharedClause {
  readonly #parts: Uint8Array[] = [];
  readonly #job = new AbortController();
  readonly #keep: (clause: CachedClause) => void;
  readonly #settled: () => void;
  #words: readonly EngineWord[] | undefined;
  #state: 'speaking' | 'whole' | 'failed' = 'speaking';
  #error: unknown;
  #readers = 0;
  #wake: (() => void)[] = [];
  #settledCalled = false;

  constructor(job: ClauseJob, keep: (clause: CachedClause) => void, settled: () => void) {
    this.#keep = keep;
    this.#settled = settled;
    void this.#pump(
      job(this.#job.signal, (words) => {
        this.#words = words;
      }),
    );
  }

  /** Whether a reader joining now gets the whole clause: it is still being spoken, for someone. */
  get joinable(): boolean {
    return this.#state !== 'failed' && !this.#job.signal.aborted;
  }

  /** A reader of the clause from its first part. */
  reader(options: ClauseReader): AsyncIterableIterator<Uint8Array> {
    const { signal } = options;
    this.#readers++;
    let at = 0;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      signal?.removeEventListener('abort', leave);
      this.#leave();
    };
    signal?.addEventListener('abort', leave, { once: true });
    if (signal?.aborted) leave();
    const done = { value: undefined, done: true } as const;
    const iterator: AsyncIterableIterator<Uint8Array> = {
      next: async () => {
        for (;;) {
          signal?.throwIfAborted();
          if (left) return done;
          const part = this.#parts[at];
          if (part !== undefined) {
            at++;
            return { value: options.copies ? part.slice() : part, done: false };
          }
          if (this.#state === 'whole') {
            leave();
            options.words(this.#words);
            return done;
          }
          if (this.#state === 'failed') {
            leave();
            throw this.#error;
          }
          await new Promise<void>((resolve) => {
            const wake = () => {
              signal?.removeEventListener('abort', wake);
              resolve();
            };
            this.#wake.push(wake);
            signal?.addEventListener('abort', wake, { once: true });
          });
        }
      },
      return: async () => {
        leave();
        return done;
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  #leave(): void {
    this.#readers--;
    if (this.#readers > 0 || this.#state !== 'speaking') return;
    // Nobody is listening any more: the clause is not worth the engine's time.
    this.#job.abort(new Error('no reader of the clause is left'));
    this.#settle();
  }

  async #pump(source: AsyncIterableIterator<Uint8Array>): Promise<void> {
    try {
      // Held, not copied: the first reader gets these very parts, and nothing downstream writes
      // to the bytes of an audio event (the framer copies what it keeps; transports write them
      // out or hold them); readers that joined get copies.
      for await (const part of source) {
        this.#parts.push(part);
        this.#notify();
      }
      this.#state = 'whole';
      if (!this.#job.signal.aborted) this.#keepWhole();
    } catch (error) {
      this.#state = 'failed';
      this.#error = error;
    }
    this.#notify();
    this.#settle();
  }

  #keepWhole(): void {
    const length = this.#parts.reduce((sum, part) => sum + part.byteLength, 0);
    if (length === 0) return;
    const audio = new Uint8Array(length);
    const partEnds: number[] = [];
    let at = 0;
    for (const part of this.#parts) {
      audio.set(part, at);
      at += part.byteLength;
      partEnds.push(at);
    }
    this.#keep({ audio, partEnds, words: this.#words });
  }

  #notify(): void {
    const waiting = this.#wake;
    this.#wake = [];
    for (const wake of waiting) wake();
  }

  #settle(): void {
    if (this.#settledCalled) return;
    this.#settledCalled = true;
    this.#settled();
  }
}
