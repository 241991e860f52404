import type { CachedClause } from './clause-cache.ts';
import type { EngineWord } from './engines/engine.ts';

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

/**
 * A pool job's audio passed through as it comes, and given to `keep` once the job has ended on
 * its own: the clause whole, never one cancelled, failed or left part-read (a job the pool
 * interrupted and resumed delivers its clause whole, without repeats: see `pool-protocol.ts`).
 * `words` is read at that moment: the pool reports a clause's words before it ends its stream.
 * A class, not a generator: closing it before it was first read must still cancel the job.
 */
export class RecordedClause implements AsyncIterableIterator<Uint8Array> {
  readonly #source: AsyncIterableIterator<Uint8Array>;
  readonly #words: () => readonly EngineWord[] | undefined;
  readonly #keep: (clause: CachedClause) => void;
  #parts: Uint8Array[] = [];
  #length = 0;
  /** Set once the clause was kept or given up: nothing more is recorded. */
  #settled = false;

  constructor(
    source: AsyncIterableIterator<Uint8Array>,
    words: () => readonly EngineWord[] | undefined,
    keep: (clause: CachedClause) => void,
  ) {
    this.#source = source;
    this.#words = words;
    this.#keep = keep;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    const result = await this.#source.next();
    if (result.done) {
      this.#finish();
      return result;
    }
    if (this.#settled) return result;
    // Held, not copied, until they are joined: nothing downstream writes to the bytes of an
    // audio event (the framer copies what it keeps; transports write them out or hold them).
    this.#parts.push(result.value);
    this.#length += result.value.byteLength;
    return result;
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    this.#settled = true;
    this.#parts = [];
    return (await this.#source.return?.()) ?? { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    const parts = this.#parts;
    this.#parts = [];
    if (this.#length === 0) return;
    const audio = new Uint8Array(this.#length);
    const partEnds: number[] = [];
    let at = 0;
    for (const part of parts) {
      audio.set(part, at);
      at += part.byteLength;
      partEnds.push(at);
    }
    this.#keep({ audio, partEnds, words: this.#words() });
  }
}
