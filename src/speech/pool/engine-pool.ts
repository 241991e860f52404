import type { CompressedFormat } from '../audio/compressed-formats.ts';
import type { EncodingStream } from '../audio/encoding-threads.ts';
import {
  type EngineId,
  type EngineInput,
  type EngineVoice,
  type EngineWord,
  inputText,
} from '../engines/engine.ts';
import { engines } from '../engines/registry.ts';
import { CallCount, callLimitOf, heavyWorkersOf, mayTakeWorker, type OpenCall } from './admission.ts';
import { CostEstimate } from './cost.ts';
import { JobStream } from './job-stream.ts';
import { noPoolMetrics, type PoolMetrics } from './pool-metrics.ts';
import {
  bytesPerSecond,
  CONTROL_CANCEL,
  type FromWorker,
  type OutputSpec,
  type ToWorker,
  type WarmUpPlan,
  type YieldWindow,
} from './protocol.ts';
import {
  dueAgain,
  enqueue,
  holdEndsAt,
  isHolding,
  type ScheduledJob,
  startsDueBy,
  takeNext,
  yieldsWanted,
  yieldWindowOf,
} from './schedule.ts';
import { EngineWorkers, type WorkerSlot } from './workers.ts';

export type { OpenCall } from './admission.ts';

/** Opens a stream's compressed-format encoder (`EncodingThreads`, which whoever composes the pool owns). */
export interface EncoderSource {
  open(format: CompressedFormat, inputRate?: number): EncodingStream;
}

export interface PoolOptions {
  /** Worker threads, each with its own engine instances. */
  readonly size: number;
  /** What each worker speaks at start, so the first request is as fast as the hundredth. */
  readonly warmUp: WarmUpPlan;
  /**
   * Calls a heavy engine takes at once (`EngineDescriptor.heavy`); by default its calls per worker
   * for each worker it may use.
   */
  readonly heavyCalls?: Partial<Record<EngineId, number>>;
  /** Where clause lateness, engine time and admissions are recorded; nothing by default. */
  readonly metrics?: PoolMetrics;
  /**
   * The compressed formats' encoders that `openEncoder` hands out; none by default (a pool for
   * PCM only). The pool neither starts nor closes them.
   */
  readonly encoders?: EncoderSource;
  /**
   * How much lower than the request thread's the workers' scheduling priority is (nice values,
   * `lowerThreadPriority`); 0 by default, the same priority.
   */
  readonly workerNiceness?: number;
}

/** A pool whose workers are warming (`EnginePool.starting`). */
export interface StartingPool {
  readonly pool: EnginePool;
  /** Resolves once one worker has warmed: the pool is `ready` from then on. */
  readonly firstWarm: Promise<void>;
  /** Resolves once every worker has warmed. */
  readonly allWarm: Promise<void>;
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

interface QueuedJob extends ScheduledJob {
  readonly message: ToWorker;
  /** Of the input: with its engine's cost per character, the measure of how long the job will take. */
  readonly characters: number;
  /** Undefined once the job may no longer yield: it has no deadline, or it has yielded once. */
  yieldWindow: YieldWindow | undefined;
  readonly stream: JobStream<Uint8Array>;
  readonly onDone?: (done: DoneMessage) => void;
  detach(): void;
}

/** Whether `engine`'s descriptor marks it heavy (`EngineDescriptor.heavy`, `admission.ts`). */
function isHeavy(engine: EngineId): boolean {
  return engines[engine].heavy !== undefined;
}

/** The measure of a job's work: the characters of its text or phonemes. */
function inputLength(message: ToWorker): number {
  return inputText(message.input).length;
}

/**
 * Worker threads that run the engines. Each job is one clause; a worker runs one job at a
 * time and streams its audio back as it is produced, so two requests' audio never mix. Jobs
 * run earliest deadline first, by the policy in `schedule.ts`. Cancelling (AbortSignal, or
 * leaving the `for await` loop) drops a queued job at once and stops a running one at its next
 * engine chunk (a tenth of a second of audio, well under a millisecond of work), through a flag
 * in shared memory the blocked worker reads.
 */
export class EnginePool {
  readonly #workers: EngineWorkers<QueuedJob>;
  /** Waiting jobs, soonest due first. */
  readonly #queue: QueuedJob[] = [];
  /** Shared with every worker: how many waiting jobs a running one may yield to (`#publishWaiting`). */
  readonly #waiting = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  /** Calls in flight on each heavy engine (`openCall`). */
  readonly #calls = new CallCount();
  readonly #cost = new CostEstimate();
  readonly #options: PoolOptions;
  readonly #metrics: PoolMetrics;
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
    this.#workers = new EngineWorkers<QueuedJob>(
      { warmUp: options.warmUp, waiting: this.#waiting, niceness: options.workerNiceness ?? 0 },
      {
        ready: () => this.#schedule(),
        message: (slot, message) => this.#onJobMessage(slot, message),
        lost: (slot, error) => this.#lose(slot, error),
      },
    );
  }

  /** Starts the workers and resolves once every one has loaded and warmed its engines. */
  static async start(options: PoolOptions): Promise<EnginePool> {
    const starting = EnginePool.starting(options);
    await starting.allWarm;
    return starting.pool;
  }

  /**
   * Starts the workers and returns the pool at once: it is `ready` and takes jobs from the moment
   * one worker has warmed its engines (`firstWarm`), each other worker joining as it warms
   * (`allWarm`). A worker that dies while it starts rejects both, and the pool is closed.
   */
  static starting(options: PoolOptions): StartingPool {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new Error('pool size must be a positive integer');
    const pool = new EnginePool(options);
    const { first, all } = pool.#workers.start(options.size);
    const closeOnFailure = (warm: Promise<void>) =>
      warm.catch(async (error: unknown) => {
        await pool.close();
        throw error;
      });
    const starting = { pool, firstWarm: closeOnFailure(first), allWarm: closeOnFailure(all) };
    // Whoever started the pool may await only one of the two.
    starting.firstWarm.catch(() => {});
    starting.allWarm.catch(() => {});
    return starting;
  }

  /** The warm-up samples the workers could not speak (their engine's errors): the service starts without them. */
  get warmUpFailures(): readonly string[] {
    return this.#workers.warmUpFailures;
  }

  /**
   * True while the pool takes jobs: it is open and a worker is warm. A worker that died is
   * replaced while the others serve: the pool stays ready while the replacement warms up.
   */
  get ready(): boolean {
    return !this.#closed && this.#workers.slots.some((s) => s.ready);
  }

  get size(): number {
    return this.#workers.slots.length;
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
    return this.#workers.slots.filter((s) => s.job !== undefined).length;
  }

  /** Workers a heavy engine's clauses may hold at once (`heavyWorkersOf`). */
  get heavyWorkers(): number {
    return heavyWorkersOf(this.#options.size);
  }

  /** Calls a heavy engine takes at once; undefined for the others, which take every call. */
  callLimit(engine: EngineId): number | undefined {
    return callLimitOf(engines[engine], this.#options.size, this.#options.heavyCalls);
  }

  /** Calls in flight on `engine` (counted for heavy engines only). */
  callsOn(engine: EngineId): number {
    return this.#calls.on(engine);
  }

  /**
   * Admits a call (a request's whole synthesis) on `engine`: undefined when a heavy engine has as
   * many as it takes. Close it when the call ends, however it ends.
   */
  openCall(engine: EngineId): OpenCall | undefined {
    const limit = this.callLimit(engine);
    if (limit === undefined) return UNCOUNTED_CALL;
    const call = this.#calls.open(engine, limit);
    this.#metrics.callAdmission(engine, call !== undefined);
    return call;
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
        yieldWindow: yieldWindowOf(rate, { deadline: job.deadline, heavy: isHeavy(job.voice.engine) }),
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

  /**
   * An encoder of `format` for one stream of PCM at `inputRate`, from the encoders the pool was
   * given (`PoolOptions.encoders`): the pipeline (`synthesize`) reaches them through its pool.
   */
  openEncoder(format: CompressedFormat, inputRate?: number): EncodingStream {
    if (this.#closed) throw new Error('engine pool closed');
    const encoders = this.#options.encoders;
    if (!encoders) throw new Error('engine pool started without encoders for compressed formats');
    return encoders.open(format, inputRate);
  }

  /** Stops every worker; queued and running jobs fail. The encoders are their owner's to close. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#holdTimer);
    const error = new Error('engine pool closed');
    for (const job of this.#queue.splice(0)) job.stream.fail(error);
    await this.#workers.close((slot) => slot.job?.stream.fail(error));
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
      heavy: isHeavy(message.voice.engine),
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
    enqueue(this.#queue, job);
    this.#schedule();
    return stream;
  }

  #cancel(job: QueuedJob): void {
    const queuedAt = this.#queue.indexOf(job);
    if (queuedAt >= 0) {
      this.#queue.splice(queuedAt, 1);
      job.detach();
      this.#schedule();
      return;
    }
    const slot = this.#workers.slots.find((s) => s.job === job);
    if (slot) Atomics.store(slot.control, CONTROL_CANCEL, job.id);
  }

  /** Gives idle workers the most urgent jobs, then asks running jobs to yield where that helps. */
  #schedule(): void {
    const now = performance.now();
    const slots = this.#workers.slots;
    const holding = isHolding(
      now,
      this.#lastArrivalAt,
      slots.map((slot) => slot.job),
    );
    const dueBy = startsDueBy(now, holding);
    for (const slot of slots) {
      if (this.#queue.length === 0) break;
      if (!slot.ready || slot.job) continue;
      const job = takeNext(this.#queue, dueBy, (next) => this.#mayRun(next));
      if (!job) break;
      slot.job = job;
      slot.startedAt = performance.now();
      slot.worker.postMessage(this.#messageFor(job, slot.startedAt));
    }
    this.#wakeForHeld(now, holding);
    this.#publishWaiting();
  }

  /**
   * Sets a timer for when a held job may start (`holdEndsAt`), if one is held while a worker is
   * free and no event will come sooner.
   */
  #wakeForHeld(now: number, holding: boolean): void {
    const at =
      holding && this.#workers.slots.some((slot) => slot.ready && !slot.job)
        ? holdEndsAt(this.#queue, now, this.#lastArrivalAt)
        : undefined;
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

  /** Whether `job` may take a free worker now: a heavy engine holds at most `heavyWorkers` workers. */
  #mayRun(job: QueuedJob): boolean {
    if (!job.heavy) return true;
    const busy = this.#workers.slots.filter((s) => s.job?.engine === job.engine).length;
    return mayTakeWorker(engines[job.engine], busy, this.#options.size);
  }

  #messageFor(job: QueuedJob, now: number): ToWorker {
    if (job.message.type !== 'synthesize') return job.message;
    const { yieldWindow } = job;
    const aheadSeconds = Math.max(0, job.deadline - now) / 1000;
    return { ...job.message, skip: job.delivered, aheadSeconds, ...(yieldWindow ? { yieldWindow } : {}) };
  }

  /** Tells the workers how many waiting jobs a running one may give its worker up to (`yieldsWanted`). */
  #publishWaiting(): void {
    const readyWorkers = this.#workers.slots.filter((s) => s.ready).length;
    const count = yieldsWanted(this.#queue, performance.now(), readyWorkers, (job) =>
      this.#cost.of(job.engine, job.characters),
    );
    Atomics.store(this.#waiting, 0, count);
  }

  #onJobMessage(slot: WorkerSlot<QueuedJob>, message: Exclude<FromWorker, { type: 'ready' }>): void {
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
      enqueue(this.#queue, job);
      this.#schedule();
      return;
    }
    job.detach();
    // A whole run of a clause that was not cancelled measures what a character costs.
    if (message.type === 'done' && message.text === undefined && !job.stream.ended)
      this.#cost.record(job.engine, job.characters, performance.now() - slot.startedAt);
    if (message.type === 'error') {
      job.stream.fail(new Error(message.message));
    } else {
      if (message.type === 'done') job.onDone?.(message);
      // A job that yielded after its caller left has nothing more to give.
      job.stream.end();
    }
    this.#schedule();
  }

  /** A worker died (`EngineWorkers` starts its replacement): its job fails. */
  #lose(slot: WorkerSlot<QueuedJob>, error: Error): void {
    slot.job?.stream.fail(error);
    slot.job?.detach();
    slot.job = undefined;
  }
}
