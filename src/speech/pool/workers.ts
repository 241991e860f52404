import type { Worker } from 'node:worker_threads';
import { engines } from '../engines/registry.ts';
import { startTypeScriptWorker } from '../runtime/typescript-worker.ts';
import type { FromWorker, WarmUpPlan, WorkerData } from './protocol.ts';

/** The name in a pool worker's title (a debugger, a profile, a fault drill shows it). */
export const POOL_WORKER_NAME = 'ijwi-engine';

/** One worker thread and the job it runs, if any. */
export interface WorkerSlot<J> {
  readonly worker: Worker;
  /** Shared with the worker: `CONTROL_CANCEL` names a job to stop. */
  readonly control: Int32Array;
  /** True once it has warmed its engines; until then it takes no job. */
  ready: boolean;
  job: J | undefined;
  /** When the worker took its job. */
  startedAt: number;
}

export interface WorkersOptions {
  readonly warmUp: WarmUpPlan;
  /** Shared with every worker: how many waiting jobs a running one may yield to. */
  readonly waiting: Int32Array;
  /** How much lower than the request thread's the workers' scheduling priority is (nice values). */
  readonly niceness: number;
}

/** What the workers tell their pool. */
export interface WorkerEvents<J> {
  /** A worker has warmed up and may take a job. */
  ready(slot: WorkerSlot<J>): void;
  /** A message about the job a worker runs. */
  message(slot: WorkerSlot<J>, message: Exclude<FromWorker, { type: 'ready' }>): void;
  /** A warm worker died (it has left `slots`; its replacement is starting): its job is lost. */
  lost(slot: WorkerSlot<J>, error: Error): void;
}

/** What each engine prepares once for every worker (`EngineDescriptor.prepare`), by engine. */
async function prepareEngines(): Promise<WorkerData['prepared']> {
  const prepared = await Promise.all(
    Object.values(engines).map(async (engine) => [engine.id, await engine.prepare?.()] as const),
  );
  return Object.fromEntries(prepared.filter(([, value]) => value !== undefined));
}

/**
 * The workers' lifecycle: start them, each warming its engines before it takes a job (the first
 * request is as fast as the hundredth), replace one that dies once warm, and stop them all. Which
 * job a worker runs is the pool's (`engine-pool.ts`); this only keeps the threads.
 */
export class EngineWorkers<J> {
  /** The workers in the order they started; a replacement goes last. */
  readonly slots: WorkerSlot<J>[] = [];
  /** Warm-up samples the workers could not speak, once each. */
  readonly #warmUpFailures = new Set<string>();
  readonly #options: WorkersOptions;
  readonly #events: WorkerEvents<J>;
  /** What the engines prepared once for every worker, a replacement's included. */
  #prepared: WorkerData['prepared'] = {};
  #closed = false;

  constructor(options: WorkersOptions, events: WorkerEvents<J>) {
    this.#options = options;
    this.#events = events;
  }

  /**
   * Starts `size` workers, warming in parallel: `first` resolves once one of them has loaded and
   * warmed its engines (the pool takes jobs from then on), `all` once every one has. A worker that
   * dies while it starts rejects both.
   */
  start(size: number): { readonly first: Promise<void>; readonly all: Promise<void> } {
    const spawned = prepareEngines().then((prepared) => {
      this.#prepared = prepared;
      return Array.from({ length: size }, () => this.#spawn());
    });
    const first = spawned.then((workers) => Promise.race(workers));
    const all = spawned.then((workers) => Promise.all(workers)).then(() => {});
    // Whoever started the workers may await only one of the two.
    first.catch(() => {});
    all.catch(() => {});
    return { first, all };
  }

  /** The warm-up samples the workers could not speak (their engine's errors). */
  get warmUpFailures(): readonly string[] {
    return [...this.#warmUpFailures];
  }

  /** Stops every worker, after `stopping` has been told of each (to fail the job it runs). */
  async close(stopping: (slot: WorkerSlot<J>) => void): Promise<void> {
    this.#closed = true;
    for (const slot of this.slots) stopping(slot);
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): Promise<void> {
    const control = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const workerData: WorkerData = {
      control,
      waiting: this.#options.waiting,
      warmUp: this.#options.warmUp,
      prepared: this.#prepared,
      niceness: this.#options.niceness,
    };
    const slot: WorkerSlot<J> = {
      worker: startTypeScriptWorker(
        new URL('./worker-thread.ts', import.meta.url),
        workerData,
        POOL_WORKER_NAME,
      ),
      control,
      job: undefined,
      startedAt: 0,
      ready: false,
    };
    this.slots.push(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          for (const failure of message.failed) this.#warmUpFailures.add(failure);
          slot.ready = true;
          resolve();
          this.#events.ready(slot);
          return;
        }
        this.#events.message(slot, message);
      });
      // A worker that dies while starting is not replaced (it would likely die again): the
      // failure reaches whoever started the pool. One that dies later is replaced.
      const onDeath = (error: Error) => {
        if (slot.ready) {
          if (!this.#closed) this.#replace(slot, error);
          return;
        }
        this.slots.splice(this.slots.indexOf(slot), 1);
        reject(error);
      };
      slot.worker.on('error', onDeath);
      slot.worker.on('exit', (code) => onDeath(new Error(`engine worker exited with code ${code}`)));
    });
  }

  /** A warm worker died: its pool is told, and a replacement starts so the pool keeps its size. */
  #replace(slot: WorkerSlot<J>, error: Error): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    this.#events.lost(slot, error);
    if (!this.#closed) this.#spawn().catch(() => {});
  }
}
