import { parentPort, workerData } from 'node:worker_threads';
import type { StreamEncoder } from './audio/encoder.ts';
import { createStreamEncoderCache } from './audio/encoder.ts';
import type {
  ChunkSink,
  EngineId,
  EngineVoice,
  EngineWord,
  PausedClause,
  SpeechEngine,
} from './engines/engine.ts';
import { engines } from './engines/registry.ts';
import {
  bytesPerSecond,
  CONTROL_CANCEL,
  type FromWorker,
  type OutputSpec,
  type ToWorker,
  type WorkerData,
} from './pool-protocol.ts';

// One engine pool thread: its own engine instances and resamplers, one job at a time. The
// engine blocks this thread while it speaks, so cancellation arrives through shared memory.

const port = parentPort;
if (!port) throw new Error('pool-worker must run in a worker thread');
const { control, waiting, warmUp } = workerData as WorkerData;
const loaded = new Map<EngineId, SpeechEngine>();
const encoders = await createStreamEncoderCache();
const WARM_UP_ROUNDS = 3;
/**
 * After a job's first bytes, which leave at once, its audio goes in messages of about this many
 * seconds: a few per clause instead of one per engine chunk (about 0.1 s), which spares the
 * pool's thread a message, a framing step and a socket write each time. A clause is spoken at
 * hundreds of times real time, so the listener never waits for a batch.
 */
const BATCH_SECONDS = 0.5;

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

async function engineFor(voice: EngineVoice): Promise<SpeechEngine> {
  const existing = loaded.get(voice.engine);
  if (existing) return existing;
  const engine = await engines[voice.engine].load();
  loaded.set(voice.engine, engine);
  return engine;
}

/** One buffer of `length` bytes from `parts`; the part itself when it is the only one. */
function join(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** Sends bytes without a copy when they own their whole buffer, which is the usual case. */
function sendChunk(jobId: number, bytes: Uint8Array): void {
  const owned =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  send({ type: 'chunk', jobId, bytes: owned }, [owned.buffer as ArrayBuffer]);
}

type Outcome = 'done' | 'cancelled' | 'yielded';
type SynthesizeMessage = Extract<ToWorker, { type: 'synthesize' }>;

/** When a running job stops: asked between engine chunks. */
interface Stops {
  /** True once the job was cancelled. */
  cancelled(): boolean;
  /** True when the job should give its worker up now, having delivered `delivered` bytes. */
  yieldNow(delivered: number): boolean;
}

/** A job this worker paused mid-clause (its engine pauses clauses), until the pool resumes it. */
interface PausedJob {
  readonly message: SynthesizeMessage;
  readonly clause: PausedClause;
  /** Its own encoder, the resampler's state in it: the cache hands out another meanwhile. */
  readonly encoder: StreamEncoder;
  /** Bytes encoded, and bytes sent to the pool. */
  readonly produced: number;
  readonly sent: number;
  readonly words: EngineWord[];
}

/**
 * Memory the jobs this worker holds paused may keep (a paused Flite clause: 2.4 to 3.5 MB, which
 * differ from one clause to the next almost page for page); past it a running job does not pause
 * but runs on, as a job with no yield window does. About ten clauses: enough for the English
 * calls of a burst of 64 on two workers.
 */
const MAX_PAUSED_BYTES = 32 * 1024 * 1024;
const pausedJobs = new Map<number, PausedJob>();
let pausedBytes = 0;

function holdPaused(jobId: number, job: PausedJob): void {
  pausedJobs.set(jobId, job);
  pausedBytes += job.clause.bytes;
}

function takePaused(jobId: number): PausedJob | undefined {
  const job = pausedJobs.get(jobId);
  if (job === undefined) return undefined;
  pausedJobs.delete(jobId);
  pausedBytes -= job.clause.bytes;
  return job;
}

interface Spoken {
  readonly outcome: Outcome;
  readonly delivered: number;
  readonly words: EngineWord[];
  /** The clause paused (the engine pauses clauses), with what it needs to go on. */
  readonly paused?: Omit<PausedJob, 'message' | 'sent'>;
}

/**
 * One clause from engine to encoded bytes, or the rest of a paused one. `deliver` gets the bytes
 * after the first `skip`; `stops` is asked between engine chunks whether to stop. An engine that
 * pauses clauses pauses where it would yield (its sink's `pause`); any other stops there, and is
 * spoken again from the start when it resumes.
 */
async function speak(
  message: SynthesizeMessage,
  deliver: (bytes: Uint8Array) => void,
  stops: Stops,
  resumed?: PausedJob,
): Promise<Spoken> {
  const engine = await engineFor(message.voice);
  const pauses = engines[message.voice.engine].pausesClauses === true;
  const encoder = resumed?.encoder ?? encoders.get(engine.sampleRate(message.voice), message.output);
  let produced = resumed?.produced ?? 0;
  let outcome: Outcome = 'done';
  const words: EngineWord[] = resumed?.words ?? [];
  const take = (bytes: Uint8Array) => {
    const from = produced;
    produced += bytes.byteLength;
    if (produced > message.skip) deliver(from >= message.skip ? bytes : bytes.subarray(message.skip - from));
  };
  const delivered = () => Math.max(produced, message.skip);
  const sink: ChunkSink = {
    push: (samples) => take(encoder.encode(samples)),
    ...(message.words ? { word: (word: EngineWord) => void words.push(word) } : {}),
    cancelled: () => {
      if (outcome === 'done' && stops.cancelled()) outcome = 'cancelled';
      else if (outcome === 'done' && !pauses && stops.yieldNow(delivered())) outcome = 'yielded';
      return outcome !== 'done';
    },
    ...(pauses
      ? { pause: () => outcome === 'done' && pausedBytes < MAX_PAUSED_BYTES && stops.yieldNow(delivered()) }
      : {}),
  };
  const paused = resumed
    ? resumed.clause.resume(sink)
    : await engine.synthesize(message.input, message.voice, message.rate, sink);
  if (paused) {
    encoders.forget(encoder);
    return {
      outcome: 'yielded',
      delivered: delivered(),
      words,
      paused: { clause: paused, encoder, produced, words },
    };
  }
  if (outcome === 'done') take(encoder.flush());
  return { outcome, delivered: delivered(), words };
}

/**
 * Takes one of the waiting jobs the pool says a running job may give its worker up to: true
 * when there was one to take. Decided here, between engine chunks, because the pool's thread may
 * be too busy in a burst to ask in time, when a clause takes a few milliseconds.
 */
function claimWaiting(): boolean {
  for (;;) {
    const count = Atomics.load(waiting, 0);
    if (count <= 0) return false;
    if (Atomics.compareExchange(waiting, 0, count, count - 1) === count) return true;
  }
}

/**
 * Runs a job for the pool, or the rest of one it paused: first bytes at once, then batches;
 * stops when cancelled or when it yields.
 */
async function synthesizeJob(message: SynthesizeMessage, resumed?: PausedJob): Promise<void> {
  const { jobId, yieldWindow } = message;
  const batchBytes = bytesPerSecond(message.output) * BATCH_SECONDS;
  let sent = resumed?.sent ?? message.skip;
  let batch: Uint8Array[] = [];
  let batched = 0;
  const flush = () => {
    if (batched === 0) return;
    sendChunk(jobId, join(batch, batched));
    sent += batched;
    batch = [];
    batched = 0;
  };
  const { outcome, words, paused } = await speak(
    message,
    (bytes) => {
      if (bytes.byteLength === 0) return;
      batch.push(bytes);
      batched += bytes.byteLength;
      if (sent === 0 || batched >= batchBytes) flush();
    },
    {
      cancelled: () => Atomics.load(control, CONTROL_CANCEL) === jobId,
      yieldNow: (delivered) =>
        yieldWindow !== undefined &&
        delivered >= yieldWindow.fromBytes &&
        delivered < yieldWindow.untilBytes &&
        claimWaiting(),
    },
    resumed,
  );
  if (outcome === 'cancelled') {
    send({ type: 'done', jobId });
    return;
  }
  flush();
  if (outcome === 'yielded') {
    if (paused) holdPaused(jobId, { ...paused, message, sent });
    send({ type: 'yielded', jobId, delivered: sent, paused: paused !== undefined });
    return;
  }
  send({ type: 'done', jobId, ...(words.length > 0 ? { words } : {}) });
}

/** Goes on with a job this worker paused, with the window the pool now gives it (if any). */
async function resumeJob(message: Extract<ToWorker, { type: 'resume' }>): Promise<void> {
  const paused = takePaused(message.jobId);
  if (paused === undefined) throw new Error(`no paused job ${message.jobId} on this worker`);
  const { yieldWindow: _, ...rest } = paused.message;
  await synthesizeJob(message.yieldWindow ? { ...rest, yieldWindow: message.yieldWindow } : rest, paused);
}

async function run(message: ToWorker): Promise<void> {
  if (message.type === 'discard') {
    takePaused(message.jobId);
    return;
  }
  if (message.type === 'resume') {
    await resumeJob(message);
    return;
  }
  if (message.type === 'phonemes') {
    const engine = await engineFor(message.voice);
    send({ type: 'done', jobId: message.jobId, text: engine.phonemes(message.input, message.voice) });
    return;
  }
  await synthesizeJob(message);
}

async function start(): Promise<void> {
  // Every sample each round, cycling through the outputs: each voice and each encoder runs
  // several times, enough for V8 to optimise them, without speaking every pair.
  // A sample that fails (a voice pack whose runtime dies on it) is left out and reported: its
  // voice fails its own requests later, and the worker serves every other voice.
  const ignore = () => {};
  const never: Stops = { cancelled: () => false, yieldNow: () => false };
  const failed = new Map<number, string>();
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const [i, { input, voice }] of warmUp.samples.entries()) {
      const output: OutputSpec | undefined = warmUp.outputs[(i + round) % warmUp.outputs.length];
      if (!output || failed.has(i)) continue;
      await speak(
        { type: 'synthesize', jobId: 0, input, voice, rate: 1, output, skip: 0 },
        ignore,
        never,
      ).catch((error: unknown) =>
        failed.set(i, `${voice.engine}: ${error instanceof Error ? error.message : error}`),
      );
    }
  }
  port?.on('message', (message: ToWorker) => {
    run(message).catch((error: unknown) => {
      send({
        type: 'error',
        jobId: message.jobId,
        message: error instanceof Error ? error.message : String(error),
      });
    });
  });
  send({ type: 'ready', failed: [...failed.values()] });
}

await start();
