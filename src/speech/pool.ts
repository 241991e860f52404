import type { Worker } from 'node:worker_threads';
import type { CompressedFormat } from './audio/compressed-formats.ts';
import { type EncodingStream, EncodingThreads } from './audio/encoding-threads.ts';
import {
  type EngineId,
  type EngineInput,
  type EngineVoice,
  type EngineWord,
  inputText,
} from './engines/engine.ts';
import { engines } from './engines/registry.ts';
import { JobStream } from './job-stream.ts';
import { noPoolMetrics, type PoolMetrics } from './pool-metrics.ts';
import {
  bytesPerSecond,
  CONTROL_CANCEL,
  type FromWorker,
  type OutputSpec,
  type ToWorker,
  type WarmUpPlan,
  type WorkerData,
  type YieldWindow,
} from './pool-protocol.ts';
import { startTypeScriptWorker } from './typescript-worker.ts';

export interface PoolOptions {
  /** Worker threads, each with its own engine instances. */
  readonly size: number;
  /** What each worker speaks at start, so the first request is as fast as the hundredth. */
  readonly warmUp: WarmUpPlan;
  /** Calls a heavy engine takes at once (`HEAVY_ENGINES`); by default `CALLS_PER_HEAVY_WORKER` a worker it may use. */
  readonly heavyCalls?: Partial<Record<EngineId, number>>;
  /** Where clause lateness, engine time and admissions are recorded; nothing by default. */
  readonly metrics?: PoolMetrics;
  /** Threads for the compressed formats' encoders (`EncodingThreads`); 1 by default. */
  readonly encodingThreads?: number;
  /**
   * How much lower than the request thread's the workers' scheduling priority is (nice values,
   * `lowerThreadPriority`); 0 by default, the same priority.
   */
  readonly workerNiceness?: number;
}

/**
 * Engines that cost tens of times what espeak-ng does (a neural voice: 10-100x). Their clauses run
 * on all workers but one (so one is always left to the other engines' first audio), never yield
 * (a clause spoken again would cost as much again), and each takes a bounded number of calls at
 * once (`openCall`): past that a caller is told to come back, rather than queued without bound.
 */
const HEAVY_ENGINES: ReadonlySet<EngineId> = new Set(['neural']);
/** Calls in flight a heavy engine takes per worker it may use, unless `heavyCalls` says otherwise. */
export const CALLS_PER_HEAVY_WORKER = 4;

/** Workers a heavy engine's clauses may hold at once in a pool of `size`: all but one, when there are two or more. */
export function heavyWorkersOf(size: number): number {
  return Math.max(1, size - 1);
}

/** The calls a heavy engine takes at once in a pool of `size` when `heavyCalls` does not say. */
export function defaultHeavyCalls(size: number): number {
  return heavyWorkersOf(size) * CALLS_PER_HEAVY_WORKER;
}

/** A call admitted by `openCall`: its engine counts it until it is closed. */
export interface OpenCall {
  close(): void;
}

/** The call of an engine that takes every call: nothing to count. */
const UNCOUNTED_CALL: OpenCall = { close() {} };

export interface SynthesisJob {
  /** One clause, as text or as the engine's phonemes. */
  readonly input: EngineInput;
  readonly voice: EngineVoice;
  /** Speaking rate as a multiple of the voice's own; default 1. */
  readonly rate?: number;
  /** The voice's calibrated gain in dB (`Voice.gainDb`); default 0. */
  readonly gainDb?: number;
  readonly output: OutputSpec;
  /**
   * When the caller needs the job's first audio, in ms on the `performance.now()` clock. The
   * job due soonest runs first (equal deadlines in arrival order), and a running job whose
   * listener has audio to spare may be interrupted for one due sooner (see `YIELD_FROM_SECONDS`).
   * Omitted: due when submitted, and never interrupted once running.
   */
  readonly deadline?: number;
  readonly signal?: AbortSignal;
  /** Called with the clause's words once it is whole, when the engine reports words. */
  readonly onWords?: (words: readonly EngineWord[]) => void;
}

/** What a worker's `done` carries besides the end of the audio. */
type DoneMessage = Extract<FromWorker, { type: 'done' }>;

interface QueuedJob {
  readonly id: number;
  readonly message: ToWorker;
  /** Of the input: with its engine's cost per character, the measure of how long the job will take. */
  readonly characters: number;
  readonly engine: EngineId;
  /** When its next audio is needed; moves later by the audio it has delivered when it yields. */
  deadline: number;
  /** Of the job's output; 0 for a job without audio. */
  readonly bytesPerSecond: number;
  /** Bytes the caller has been given. */
  delivered: number;
  /**
   * When its listener began to play its audio: its first bytes, or its deadline if they came
   * sooner. A job that started late gives its listener audio from then on, not from its deadline.
   */
  playingFrom: number | undefined;
  /** True once this run of the job has sent audio (its lateness is recorded then); false again when it yields. */
  sounding: boolean;
  /** Undefined once the job may no longer yield: it has no deadline, or it has yielded once. */
  yieldWindow: YieldWindow | undefined;
  readonly stream: JobStream<Uint8Array>;
  readonly onDone?: (done: DoneMessage) => void;
  detach(): void;
}

interface Slot {
  worker: Worker;
  readonly control: Int32Array;
  job: QueuedJob | undefined;
  /** When the worker took its job. */
  startedAt: number;
  ready: boolean;
}

/**
 * A running job may yield its worker once it has delivered this much audio, which its listener
 * plays while the job waits, and no later than `YIELD_UNTIL_SECONDS`: the engine cannot pause,
 * so the resumed job speaks its clause from the start again and drops what was delivered, and
 * that repeated work must stay small (two seconds of audio cost a few ms with espeak-ng, about
 * 25 ms with Flite). This is what lets a burst of new calls each get its first audio without
 * waiting for whole clauses of the others. A second, not less: the interrupted job must resume
 * before its listener has played it, and with half a second (tried) a burst of 64 calls left
 * most of its streams waiting mid-sentence (`npm run bench`, bursts: late streams).
 */
const YIELD_FROM_SECONDS = 1;
const YIELD_UNTIL_SECONDS = 2;
/**
 * What needs no engine goes ahead of the clauses listeners need only later: while a request is
 * being accepted (one arrived within `ARRIVAL_QUIET_MS`, see `requestArrived`) or a clause that
 * is due waits for its first audio (a new call's first clause, queued or speaking), a worker does
 * not start a job due more than `HOLD_AHEAD_MS` from now (a call's later clause, a file's) and
 * leaves the cores to the request thread and to that first audio. A held job starts once neither
 * holds, or once it is due within `HOLD_AHEAD_MS`, whichever comes first: held, it can come no
 * closer to its listener's need than that, which is more than a clause takes with its queue.
 */
const HOLD_AHEAD_MS = 500;
const ARRIVAL_QUIET_MS = 10;
/** Worker time per input character before any is measured (about 8 ms for a 40-character clause). */
const INITIAL_MS_PER_CHARACTER = 0.2;
/** Weight of each new measurement in the moving average of worker time per character. */
const COST_SMOOTHING = 0.05;

/** The name in a pool worker's title (a debugger, a profile, a fault drill shows it). */
export const POOL_WORKER_NAME = 'ijwi-engine';

function startWorker(workerData: WorkerData): Worker {
  return startTypeScriptWorker(new URL('./pool-worker.ts', import.meta.url), workerData, POOL_WORKER_NAME);
}

/** What each engine prepares once for every worker (`EngineDescriptor.prepare`), by engine. */
async function prepareEngines(): Promise<WorkerData['prepared']> {
  const prepared = await Promise.all(
    Object.values(engines).map(async (engine) => [engine.id, await engine.prepare?.()] as const),
  );
  return Object.fromEntries(prepared.filter(([, value]) => value !== undefined));
}

/** The measure of a job's work: the characters of its text or phonemes. */
function inputLength(message: ToWorker): number {
  return inputText(message.input).length;
}

/** When a job's listener runs out of the audio it has been given. */
function dueAgain(job: QueuedJob): number {
  const from = job.playingFrom ?? job.deadline;
  return job.bytesPerSecond > 0 ? from + (job.delivered / job.bytesPerSecond) * 1000 : from;
}

/** True when `a` runs before `b`: the earlier deadline, then the earlier arrival. */
function before(a: QueuedJob, b: QueuedJob): boolean {
  return a.deadline < b.deadline || (a.deadline === b.deadline && a.id < b.id);
}

/**
 * Worker threads that run the engines. Each job is one clause; a worker runs one job at a
 * time and streams its audio back as it is produced, so two requests' audio never mix. Jobs
 * run earliest deadline first. Cancelling (AbortSignal, or leaving the `for await` loop) drops
 * a queued job at once and stops a running one at its next engine chunk (a tenth of a second
 * of audio, well under a millisecond of work), through a flag in shared memory the blocked
 * worker reads.
 */
export class EnginePool {
  readonly #slots: Slot[] = [];
  /** Waiting jobs, soonest due first. */
  readonly #queue: QueuedJob[] = [];
  /** Shared with every worker: how many waiting jobs a running one may yield to (`#publishWaiting`). */
  readonly #waiting = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  /** Warm-up samples the workers could not speak, once each. */
  readonly #warmUpFailures = new Set<string>();
  /** Calls in flight on each heavy engine (`openCall`). */
  readonly #calls = new Map<EngineId, number>();
  /** Worker time per input character, by engine: Flite's clauses cost several times espeak-ng's. */
  readonly #msPerCharacter = new Map<EngineId, number>();
  readonly #options: PoolOptions;
  readonly #metrics: PoolMetrics;
  #encoding: EncodingThreads | undefined;
  /** What the engines prepared once for every worker, a replacement's included. */
  #prepared: WorkerData['prepared'] = {};
  #nextId = 1;
  #closed = false;
  /** When the last request arrived (`requestArrived`), on the `performance.now()` clock. */
  #lastArrivalAt = Number.NEGATIVE_INFINITY;
  /** Wakes `#schedule` when a held job may start (at `#holdUntil`); undefined when none is set. */
  #holdTimer: NodeJS.Timeout | undefined;
  #holdUntil: number | undefined;

  private constructor(options: PoolOptions) {
    this.#options = options;
    this.#metrics = options.metrics ?? noPoolMetrics;
  }

  /** Starts the workers and resolves once every one has loaded and warmed its engines. */
  static async start(options: PoolOptions): Promise<EnginePool> {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new Error('pool size must be a positive integer');
    const pool = new EnginePool(options);
    try {
      pool.#prepared = await prepareEngines();
      pool.#encoding = new EncodingThreads(options.encodingThreads ?? 1);
      await Promise.all(Array.from({ length: options.size }, () => pool.#spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** The warm-up samples the workers could not speak (their engine's errors): the service starts without them. */
  get warmUpFailures(): readonly string[] {
    return [...this.#warmUpFailures];
  }

  /** True when every worker is warmed and none has been lost. */
  /**
   * True while the pool takes jobs: it is open and a worker is warm. A worker that died is
   * replaced while the others serve: the pool stays ready while the replacement warms up.
   */
  get ready(): boolean {
    return !this.#closed && this.#slots.some((s) => s.ready);
  }

  get size(): number {
    return this.#slots.length;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Whether a job due by now waits for a worker (the queue is soonest due first): if not, a
   * clause submitted now starts at once.
   */
  get dueJobWaiting(): boolean {
    return (this.#queue[0]?.deadline ?? Number.POSITIVE_INFINITY) <= performance.now();
  }

  /** Jobs a worker is running now. */
  get running(): number {
    return this.#slots.filter((s) => s.job !== undefined).length;
  }

  /** Workers a heavy engine's clauses may hold at once (`heavyWorkersOf`). */
  get heavyWorkers(): number {
    return heavyWorkersOf(this.#options.size);
  }

  /** Calls a heavy engine takes at once; undefined for the others, which take every call. */
  callLimit(engine: EngineId): number | undefined {
    if (!HEAVY_ENGINES.has(engine)) return undefined;
    return this.#options.heavyCalls?.[engine] ?? defaultHeavyCalls(this.#options.size);
  }

  /** Calls in flight on `engine` (counted for heavy engines only). */
  callsOn(engine: EngineId): number {
    return this.#calls.get(engine) ?? 0;
  }

  /**
   * Admits a call (a request's whole synthesis) on `engine`: undefined when a heavy engine has as
   * many as it takes. Close it when the call ends, however it ends.
   */
  openCall(engine: EngineId): OpenCall | undefined {
    const limit = this.callLimit(engine);
    if (limit === undefined) return UNCOUNTED_CALL;
    const calls = this.callsOn(engine);
    const admitted = calls < limit;
    this.#metrics.callAdmission(engine, admitted);
    if (!admitted) return undefined;
    this.#calls.set(engine, calls + 1);
    let open = true;
    return {
      close: () => {
        if (!open) return;
        open = false;
        this.#calls.set(engine, this.callsOn(engine) - 1);
      },
    };
  }

  /**
   * A request has arrived (the HTTP layer says so before it parses it): for `ARRIVAL_QUIET_MS`
   * the workers start no job due later than `HOLD_AHEAD_MS` from now, so the request thread has
   * the cores to accept it.
   */
  requestArrived(at = performance.now()): void {
    this.#lastArrivalAt = Math.max(this.#lastArrivalAt, at);
  }

  /** Streams the encoded audio of one clause. */
  synthesize(job: SynthesisJob): JobStream<Uint8Array> {
    const rate = bytesPerSecond(job.output);
    return this.#enqueue(
      {
        type: 'synthesize',
        jobId: this.#nextId++,
        input: job.input,
        voice: job.voice,
        rate: job.rate ?? 1,
        gainDb: job.gainDb ?? 0,
        output: job.output,
        skip: 0,
        aheadSeconds: 0,
        ...(job.onWords ? { words: true } : {}),
      },
      {
        deadline: job.deadline ?? performance.now(),
        bytesPerSecond: rate,
        yieldWindow:
          job.deadline === undefined || HEAVY_ENGINES.has(job.voice.engine)
            ? undefined
            : { fromBytes: rate * YIELD_FROM_SECONDS, untilBytes: rate * YIELD_UNTIL_SECONDS },
      },
      job.signal,
      job.onWords ? (done) => done.words && job.onWords?.(done.words) : undefined,
    );
  }

  /** The phonemes the engine would speak for `input`, in IPA. */
  async phonemes(input: EngineInput, voice: EngineVoice): Promise<string> {
    let text = '';
    const stream = this.#enqueue(
      { type: 'phonemes', jobId: this.#nextId++, input, voice },
      { deadline: performance.now(), bytesPerSecond: 0, yieldWindow: undefined },
      undefined,
      (done) => {
        text = done.text ?? '';
      },
    );
    for await (const _ of stream) {
      // phoneme jobs send no audio
    }
    return text;
  }

  /** An encoder of `format` for one stream of PCM at `inputRate`, on the pool's encoding threads. */
  openEncoder(format: CompressedFormat, inputRate?: number): EncodingStream {
    if (!this.#encoding) throw new Error('engine pool closed');
    return this.#encoding.open(format, inputRate);
  }

  /** Stops every worker; queued and running jobs fail. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#holdTimer);
    await this.#encoding?.close();
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
    schedule: Pick<QueuedJob, 'deadline' | 'bytesPerSecond' | 'yieldWindow'>,
    signal: AbortSignal | undefined,
    onDone?: (done: DoneMessage) => void,
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
      characters: inputLength(message),
      engine: message.voice.engine,
      ...schedule,
      delivered: 0,
      playingFrom: undefined,
      sounding: false,
      stream,
      ...(onDone ? { onDone } : {}),
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
    this.#insert(job);
    this.#schedule();
    return stream;
  }

  #insert(job: QueuedJob): void {
    // Binary search for the first job that runs after this one.
    let low = 0;
    let high = this.#queue.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.#queue[mid];
      if (other && before(other, job)) low = mid + 1;
      else high = mid;
    }
    this.#queue.splice(low, 0, job);
  }

  #cancel(job: QueuedJob): void {
    const queuedAt = this.#queue.indexOf(job);
    if (queuedAt >= 0) {
      this.#queue.splice(queuedAt, 1);
      job.detach();
      this.#schedule();
      return;
    }
    const slot = this.#slots.find((s) => s.job === job);
    if (slot) Atomics.store(slot.control, CONTROL_CANCEL, job.id);
  }

  /** Gives idle workers the most urgent jobs, then asks running jobs to yield where that helps. */
  #schedule(): void {
    const now = performance.now();
    const holding = this.#holding(now);
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const job = this.#takeRunnable(holding ? now + HOLD_AHEAD_MS : Number.POSITIVE_INFINITY);
      if (!job) break;
      slot.job = job;
      slot.startedAt = performance.now();
      slot.worker.postMessage(this.#messageFor(job, slot.startedAt));
    }
    this.#wakeForHeld(now, holding);
    this.#publishWaiting();
  }

  /**
   * Whether jobs due later than `HOLD_AHEAD_MS` wait now: a request arrived within
   * `ARRIVAL_QUIET_MS`, or a worker runs a due job to its first audio. (A due job still queued
   * takes the next free worker before any later one.)
   */
  #holding(now: number): boolean {
    if (now - this.#lastArrivalAt < ARRIVAL_QUIET_MS) return true;
    return this.#slots.some(({ job }) => job !== undefined && !job.sounding && job.deadline <= now);
  }

  /**
   * Sets a timer for when a held job may start, if one is held and no event will come sooner:
   * the end of the arrivals' quiet window, or the first held job's `HOLD_AHEAD_MS` before its
   * deadline. A job that sounds or ends runs `#schedule` itself.
   */
  #wakeForHeld(now: number, holding: boolean): void {
    const held =
      holding && this.#slots.some((slot) => slot.ready && !slot.job)
        ? this.#queue.find((job) => job.deadline > now + HOLD_AHEAD_MS)
        : undefined;
    const quietAt = this.#lastArrivalAt + ARRIVAL_QUIET_MS;
    const at =
      held === undefined
        ? undefined
        : Math.min(held.deadline - HOLD_AHEAD_MS, quietAt > now ? quietAt : Number.POSITIVE_INFINITY);
    if (at === this.#holdUntil) return;
    clearTimeout(this.#holdTimer);
    this.#holdUntil = at;
    this.#holdTimer =
      at === undefined
        ? undefined
        : setTimeout(
            () => {
              this.#holdUntil = undefined;
              this.#schedule();
            },
            Math.max(1, Math.ceil(at - now)),
          );
  }

  /** The most urgent waiting job due by `dueBy` whose engine may have another worker now. */
  #takeRunnable(dueBy: number): QueuedJob | undefined {
    const at = this.#queue.findIndex((job) => job.deadline <= dueBy && this.#mayRun(job.engine));
    return at < 0 ? undefined : this.#queue.splice(at, 1)[0];
  }

  /** Whether a job of `engine` may start now: a heavy engine holds at most `heavyWorkers` workers. */
  #mayRun(engine: EngineId): boolean {
    if (!HEAVY_ENGINES.has(engine)) return true;
    return this.#slots.filter((s) => s.job?.engine === engine).length < this.heavyWorkers;
  }

  #messageFor(job: QueuedJob, now: number): ToWorker {
    if (job.message.type !== 'synthesize') return job.message;
    const { yieldWindow } = job;
    const aheadSeconds = Math.max(0, job.deadline - now) / 1000;
    return { ...job.message, skip: job.delivered, aheadSeconds, ...(yieldWindow ? { yieldWindow } : {}) };
  }

  /**
   * Tells the workers how many waiting jobs a running one may give its worker up to: the jobs
   * due by now that have not started (a new call's first clause, as a rule), as many as the
   * workers can run, with every other job due before an interrupted one would resume and the
   * interrupted jobs' runs again, within the audio an interrupted job leaves its listener
   * (`YIELD_FROM_SECONDS`). Past that, interrupting would only move the wait from the
   * start of some calls into the middle of others. A worker inside its job's yield window takes
   * one and yields (pool-worker.ts); an interrupted job, waiting to resume, interrupts no one:
   * it gets the next free worker when it is the most urgent, which bounds the repeated work.
   */
  #publishWaiting(): void {
    const now = performance.now();
    const slack = YIELD_FROM_SECONDS * 1000;
    let work = 0;
    let fresh = 0;
    let freshWork = 0;
    // Every job due before an interrupted one would have to resume runs before it.
    for (const job of this.#queue) {
      if (job.deadline > now + slack) break;
      // A heavy engine's job waits for a worker of its own share, never for a yield.
      if (HEAVY_ENGINES.has(job.engine)) continue;
      const cost = this.#cost(job);
      work += cost;
      if (job.delivered === 0 && job.deadline <= now) {
        fresh++;
        freshWork += cost;
      }
    }
    // Each yield adds the interrupted job's run again, about as much as a waiting job's.
    const spare = slack * this.#slots.filter((s) => s.ready).length - work;
    const count = fresh === 0 ? 0 : Math.min(fresh, Math.floor(spare / (freshWork / fresh)));
    Atomics.store(this.#waiting, 0, Math.max(0, count));
  }

  /** The worker time a job is expected to take, in ms. */
  #cost(job: QueuedJob): number {
    return job.characters * (this.#msPerCharacter.get(job.engine) ?? INITIAL_MS_PER_CHARACTER);
  }

  #spawn(): Promise<void> {
    const control = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const workerData: WorkerData = {
      control,
      waiting: this.#waiting,
      warmUp: this.#options.warmUp,
      prepared: this.#prepared,
      niceness: this.#options.workerNiceness ?? 0,
    };
    const slot: Slot = {
      worker: startWorker(workerData),
      control,
      job: undefined,
      startedAt: 0,
      ready: false,
    };
    this.#slots.push(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          for (const failure of message.failed) this.#warmUpFailures.add(failure);
          slot.ready = true;
          resolve();
          this.#schedule();
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
      const now = performance.now();
      if (!job.sounding) {
        job.sounding = true;
        this.#metrics.clauseStarted(job.engine, now - job.deadline);
        // Its first audio may have been what held the others.
        if (job.deadline <= now && this.#queue.length > 0) this.#schedule();
      }
      job.playingFrom ??= Math.max(job.deadline, now);
      job.delivered += message.bytes.byteLength;
      job.stream.push(message.bytes);
      return;
    }
    slot.job = undefined;
    this.#metrics.engineTime(job.engine, performance.now() - slot.startedAt);
    if (message.type === 'yielded' && !job.stream.ended) {
      // Due again when its listener has played what it was given; it may not yield twice.
      job.sounding = false;
      job.delivered = message.delivered;
      job.deadline = dueAgain(job);
      job.yieldWindow = undefined;
      this.#insert(job);
      this.#schedule();
      return;
    }
    job.detach();
    // A whole run of a clause that was not cancelled measures what a character costs.
    if (message.type === 'done' && message.text === undefined && !job.stream.ended && job.characters > 0) {
      const sample = (performance.now() - slot.startedAt) / job.characters;
      const average = this.#msPerCharacter.get(job.engine) ?? INITIAL_MS_PER_CHARACTER;
      this.#msPerCharacter.set(job.engine, average + COST_SMOOTHING * (sample - average));
    }
    if (message.type === 'error') {
      job.stream.fail(new Error(message.message));
    } else {
      if (message.type === 'done') job.onDone?.(message);
      // A job that yielded after its caller left has nothing more to give.
      job.stream.end();
    }
    this.#schedule();
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
