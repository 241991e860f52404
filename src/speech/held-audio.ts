/**
 * What a listener who stops reading may cost (api-v1.md, "A listener who stops reading"): the
 * audio synthesis has made and its reader has not taken, bounded in bytes. A worker cannot pause
 * an engine mid-clause (and other calls need it), so a clause whose reader is too far behind is
 * cancelled, and spoken again from its start once the reader has caught up, its bytes already
 * made dropped: synthesis is deterministic, so what follows joins them byte for byte (as when the
 * pool resumes a job that yielded, `pool-protocol.ts`). A reader that never comes back costs the
 * bound and no engine time; one that reads on gets the audio whole.
 */

/**
 * Where a stream's pipeline stops taking audio its reader has not taken (2 s at 24 kHz, 6 s at
 * 8 kHz). The pool's messages that were on their way come in beyond it, one for each of the two
 * clauses the pipeline makes at once (up to 2 s each): with those, the transport's own bounded
 * buffer and a compressed stream's encoder, a stalled stream stays under the contract's 512 KB
 * (the sum, path by path, is in the README).
 */
export const MAX_HELD_BYTES = 96 * 1024;

/**
 * The bytes held for one reader (a stream, or a live connection's contexts together), shared by
 * the clauses being made for it. A clause that takes bytes checks `over`; one that gives them back
 * wakes the paused clauses, which start again when the budget allows.
 */
export class HeldAudio {
  readonly limit: number;
  #held = 0;
  readonly #paused = new Set<() => void>();

  constructor(limit = MAX_HELD_BYTES) {
    this.limit = limit;
  }

  get held(): number {
    return this.#held;
  }

  take(bytes: number): void {
    this.#held += bytes;
  }

  give(bytes: number): void {
    this.#held -= bytes;
    for (const wake of [...this.#paused]) wake();
  }

  /** Calls `wake` on every `give` until `resumed` is called. */
  pause(wake: () => void): { resumed(): void } {
    this.#paused.add(wake);
    return { resumed: () => this.#paused.delete(wake) };
  }
}

/**
 * One run of a clause's audio: the pool job (or the clause cache) that speaks it from its start;
 * `again` for a run after a pause (its reader is behind: it is due now).
 */
export type ClauseRun = (again: boolean) => AsyncIterator<Uint8Array>;

/**
 * A clause's audio read within `budget`: its chunks are taken from `run` as they come and held
 * until the reader asks. Before its reader starts (the pipeline's look-ahead) it holds the budget
 * up to half; once read, up to all of it. Past that its run is stopped (a pool job is cancelled)
 * and started again, the bytes already had skipped, once the budget is back under half as much,
 * or at once when its reader waits with nothing held. Leaving it early (`return`) stops the run
 * and gives its bytes back.
 */
export class HeldClause implements AsyncIterableIterator<Uint8Array> {
  readonly #run: ClauseRun;
  readonly #budget: HeldAudio;
  readonly #chunks: Uint8Array[] = [];
  #heldBytes = 0;
  /** Bytes of the clause had from runs so far, in order: what a new run skips. */
  #received = 0;
  #job: AsyncIterator<Uint8Array> | undefined;
  #reading = false;
  #paused: { resumed(): void } | undefined;
  #ended = false;
  #closed = false;
  #error: unknown;
  #wake: (() => void) | undefined;

  constructor(run: ClauseRun, budget: HeldAudio) {
    this.#run = run;
    this.#budget = budget;
    this.#start();
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    this.#reading = true;
    for (;;) {
      if (this.#closed) return { value: undefined, done: true };
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        this.#heldBytes -= chunk.byteLength;
        this.#budget.give(chunk.byteLength);
        return { value: chunk, done: false };
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#ended) return { value: undefined, done: true };
      // Its reader waits and nothing is held: it goes on whatever the others hold.
      if (this.#paused) this.#resume();
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.#closed) {
      this.#closed = true;
      this.#paused?.resumed();
      this.#paused = undefined;
      const job = this.#job;
      this.#job = undefined;
      this.#budget.give(this.#heldBytes);
      this.#chunks.length = 0;
      this.#heldBytes = 0;
      this.#wakeReader();
      await job?.return?.();
    }
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The budget this clause may fill before it pauses: all once read, half before. */
  #pauseAt(): number {
    return this.#reading ? this.#budget.limit : this.#budget.limit / 2;
  }

  #start(): void {
    const job = this.#run(this.#received > 0);
    this.#job = job;
    void this.#pump(job, this.#received);
  }

  async #pump(job: AsyncIterator<Uint8Array>, skip: number): Promise<void> {
    let toSkip = skip;
    try {
      for (;;) {
        const result = await job.next();
        if (this.#job !== job) return;
        if (result.done) {
          this.#ended = true;
          break;
        }
        let bytes = result.value;
        if (toSkip > 0) {
          const skipped = Math.min(toSkip, bytes.byteLength);
          toSkip -= skipped;
          if (skipped === bytes.byteLength) continue;
          bytes = bytes.subarray(skipped);
        }
        this.#chunks.push(bytes);
        this.#heldBytes += bytes.byteLength;
        this.#received += bytes.byteLength;
        this.#budget.take(bytes.byteLength);
        this.#wakeReader();
        if (this.#budget.held >= this.#pauseAt()) {
          this.#pause();
          // Cancels the job: a worker is never held for a reader that is behind.
          await job.return?.();
          return;
        }
      }
    } catch (error) {
      if (this.#job !== job) return;
      this.#error = error ?? new Error('the clause failed');
    }
    this.#job = undefined;
    this.#wakeReader();
  }

  #pause(): void {
    this.#job = undefined;
    this.#paused = this.#budget.pause(() => {
      if (this.#budget.held <= this.#pauseAt() / 2) this.#resume();
    });
  }

  #resume(): void {
    if (!this.#paused || this.#closed) return;
    this.#paused.resumed();
    this.#paused = undefined;
    this.#start();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
