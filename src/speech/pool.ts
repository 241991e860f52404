import { Worker } from 'node:worker_threads';
import type { EngineVoice } from './engines/engine.ts';
import { JobStream } from './job-stream.ts';
import type { FromWorker, OutputSpec, ToWorker, WarmUpPlan, WorkerData } from './pool-protocol.ts';

export interface PoolOptions {
  /** Worker threads, each with its own engine instances. */
  readonly size: number;
  /** What each worker speaks at start, so the first request is as fast as the hundredth. */
  readonly warmUp: WarmUpPlan;
}

export interface SynthesisJob {
  /** One clause, in the engine's input language. */
  readonly input: string;
  readonly voice: EngineVoice;
  readonly output: OutputSpec;
  /** Lower runs first; equal priorities run in arrival order. */
  readonly priority?: number;
  readonly signal?: AbortSignal;
}

interface QueuedJob {
  readonly id: number;
  readonly message: ToWorker;
  readonly priority: number;
  readonly stream: JobStream<Uint8Array>;
  readonly onText?: (text: string) => void;
  detach(): void;
}

interface Slot {
  worker: Worker;
  readonly cancel: Int32Array;
  job: QueuedJob | undefined;
  ready: boolean;
}

/**
 * Node 20 does not apply `--import` loader hooks to a worker's entry module, so the TypeScript
 * worker is started through a one-line bootstrap that registers the TypeScript loader first.
 */
function startWorker(workerData: WorkerData): Worker {
  const entry = JSON.stringify(new URL('./pool-worker.ts', import.meta.url).href);
  const loader = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const bootstrap = `import(${loader}).then((tsx) => { tsx.register(); return import(${entry}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/**
 * Worker threads that run the engines. Each job is one clause; a worker runs one job at a
 * time and streams its audio back as it is produced, so two requests' audio never mix.
 * Cancelling (AbortSignal, or leaving the `for await` loop) drops a queued job at once and
 * stops a running one at its next engine chunk, through a shared flag the blocked worker reads.
 */
export class EnginePool {
  readonly #slots: Slot[] = [];
  readonly #queue: QueuedJob[] = [];
  readonly #options: PoolOptions;
  #nextId = 1;
  #closed = false;

  private constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** Starts the workers and resolves once every one has loaded and warmed its engines. */
  static async start(options: PoolOptions): Promise<EnginePool> {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new Error('pool size must be a positive integer');
    const pool = new EnginePool(options);
    try {
      await Promise.all(Array.from({ length: options.size }, () => pool.#spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** True when every worker is warmed and none has been lost. */
  get ready(): boolean {
    return !this.#closed && this.#slots.every((s) => s.ready);
  }

  get size(): number {
    return this.#slots.length;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Streams the encoded audio of one clause. */
  synthesize(job: SynthesisJob): JobStream<Uint8Array> {
    const id = this.#nextId++;
    return this.#enqueue(
      { type: 'synthesize', jobId: id, input: job.input, voice: job.voice, output: job.output },
      job.priority ?? 0,
      job.signal,
    );
  }

  /** The phonemes the engine would speak for `input`, in IPA. */
  async phonemes(input: string, voice: EngineVoice): Promise<string> {
    let text = '';
    const stream = this.#enqueue(
      { type: 'phonemes', jobId: this.#nextId++, input, voice },
      0,
      undefined,
      (t) => {
        text = t;
      },
    );
    for await (const _ of stream) {
      // phoneme jobs send no audio
    }
    return text;
  }

  /** Stops every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error('engine pool closed');
    for (const job of this.#queue.splice(0)) job.stream.fail(error);
    await Promise.all(
      this.#slots.map(async (slot) => {
        slot.job?.stream.fail(error);
        await slot.worker.terminate();
      }),
    );
  }

  #enqueue(
    message: ToWorker,
    priority: number,
    signal: AbortSignal | undefined,
    onText?: (text: string) => void,
  ): JobStream<Uint8Array> {
    const cancel = () => this.#cancel(job);
    const stream = new JobStream<Uint8Array>(cancel);
    const onAbort = () => {
      cancel();
      stream.fail(signal?.reason ?? new Error('aborted'));
    };
    const job: QueuedJob = {
      id: message.jobId,
      message,
      priority,
      stream,
      ...(onText ? { onText } : {}),
      detach: () => signal?.removeEventListener('abort', onAbort),
    };
    if (this.#closed) {
      stream.fail(new Error('engine pool closed'));
      return stream;
    }
    if (signal?.aborted) {
      stream.fail(signal.reason);
      return stream;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    // Insert after every job of the same or higher priority: stable, so arrival order holds.
    let at = this.#queue.length;
    while (at > 0 && (this.#queue[at - 1]?.priority ?? 0) > priority) at--;
    this.#queue.splice(at, 0, job);
    this.#dispatch();
    return stream;
  }

  #cancel(job: QueuedJob): void {
    const queuedAt = this.#queue.indexOf(job);
    if (queuedAt >= 0) {
      this.#queue.splice(queuedAt, 1);
      job.detach();
      return;
    }
    const slot = this.#slots.find((s) => s.job === job);
    if (slot) Atomics.store(slot.cancel, 0, job.id);
  }

  #dispatch(): void {
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.#queue.shift();
      if (!job) return;
      slot.job = job;
      slot.worker.postMessage(job.message);
    }
  }

  #spawn(): Promise<void> {
    const cancel = new Int32Array(new SharedArrayBuffer(4));
    const workerData: WorkerData = { cancel, warmUp: this.#options.warmUp };
    const slot: Slot = { worker: startWorker(workerData), cancel, job: undefined, ready: false };
    this.#slots.push(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          slot.ready = true;
          resolve();
          this.#dispatch();
          return;
        }
        this.#onJobMessage(slot, message);
      });
      // A worker that dies while starting is not replaced (it would likely die again): the
      // failure reaches whoever started the pool. One that dies later is replaced.
      const onDeath = (error: Error) => {
        if (slot.ready) {
          if (!this.#closed) this.#lose(slot, error);
          return;
        }
        this.#slots.splice(this.#slots.indexOf(slot), 1);
        reject(error);
      };
      slot.worker.on('error', onDeath);
      slot.worker.on('exit', (code) => onDeath(new Error(`engine worker exited with code ${code}`)));
    });
  }

  #onJobMessage(slot: Slot, message: Exclude<FromWorker, { type: 'ready' }>): void {
    const job = slot.job;
    if (!job || job.id !== message.jobId) return;
    if (message.type === 'chunk') {
      job.stream.push(message.bytes);
      return;
    }
    slot.job = undefined;
    job.detach();
    if (message.type === 'done') {
      if (message.text !== undefined) job.onText?.(message.text);
      job.stream.end();
    } else {
      job.stream.fail(new Error(message.message));
    }
    this.#dispatch();
  }

  /** A worker died: fail its job and start a replacement so the pool keeps its size. */
  #lose(slot: Slot, error: Error): void {
    const at = this.#slots.indexOf(slot);
    if (at < 0) return;
    this.#slots.splice(at, 1);
    slot.job?.stream.fail(error);
    slot.job?.detach();
    slot.job = undefined;
    if (!this.#closed) this.#spawn().catch(() => {});
  }
}
