/**
 * A push-to-pull queue: the pool pushes chunks as a worker sends them, the caller pulls them
 * with `for await`. Leaving the loop early (break, throw) calls `onClose`, which cancels the job.
 * It holds at most one job's audio, one clause: a worker is never held for a slow reader (the
 * engine cannot pause, and other calls need the worker); a slow reader is paced a clause at a
 * time instead, by `synthesize`, which starts a clause only once the one before is being read.
 */
export class JobStream<T> implements AsyncIterableIterator<T> {
  readonly #buffered: T[] = [];
  #waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  #ended = false;
  #error: unknown;
  readonly #onClose: () => void;

  constructor(onClose: () => void) {
    this.#onClose = onClose;
  }

  push(item: T): void {
    if (this.#ended) return;
    if (this.#waiting) {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting.resolve({ value: item, done: false });
    } else {
      this.#buffered.push(item);
    }
  }

  end(): void {
    this.#finish(undefined);
  }

  fail(error: unknown): void {
    this.#finish(error ?? new Error('job failed'));
  }

  get ended(): boolean {
    return this.#ended;
  }

  next(): Promise<IteratorResult<T>> {
    const item = this.#buffered.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.#ended) {
      if (this.#error !== undefined) {
        const error = this.#error;
        this.#error = undefined;
        return Promise.reject(error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#ended) {
      this.#finish(undefined);
      this.#onClose();
    }
    this.#buffered.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #finish(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) {
      if (error === undefined) waiting.resolve({ value: undefined, done: true });
      else waiting.reject(error);
    } else {
      this.#error = error;
    }
  }
}
