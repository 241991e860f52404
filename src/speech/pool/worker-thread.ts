import { parentPort, workerData } from 'node:worker_threads';
import { joinBytes } from '../audio/bytes.ts';
import { createLevelStage } from '../audio/level.ts';
import { createStreamEncoderCache } from '../audio/stream-encoder.ts';
import type { EngineId, EngineVoice, EngineWord, SpeechEngine } from '../engines/engine.ts';
// The engines alone: a worker never reads text, so it loads no front-end (`registry.ts` has them).
import { engines } from '../engines/engine-list.ts';
import {
  bytesPerSecond,
  CONTROL_CANCEL,
  type FromWorker,
  type OutputSpec,
  type ToWorker,
  type WorkerData,
} from './protocol.ts';
import { lowerThreadPriority } from './thread-priority.ts';

// One engine pool thread: its own engine instances and resamplers, one job at a time. The
// engine blocks this thread while it speaks, so cancellation arrives through shared memory.

const port = parentPort;
if (!port) throw new Error('worker-thread.ts must run in a worker thread');
const { control, waiting, warmUp, prepared, niceness } = workerData as WorkerData;
// Below the request thread: what needs no engine (a request accepted and authorised, a cached
// first clause sent) goes ahead of the clauses this thread speaks.
lowerThreadPriority(niceness);
const loaded = new Map<EngineId, SpeechEngine>();
const encoders = await createStreamEncoderCache();
/**
 * Rounds of the warm-up, each every sample once, cycling through the outputs: each voice and each
 * encoder runs several times, enough for V8 to optimise them, without speaking every pair. The
 * first round is spoken before the worker reports ready (every engine loaded, every voice and
 * output run once); the others only while it has no job, so no caller waits for them.
 */
const WARM_UP_ROUNDS = 3;
/**
 * A job's audio goes in batches of engine chunks (about 0.1 s each), each batch a message, a
 * framing step and a socket write on the pool's thread, which in a burst of calls spends more
 * time writing than anything else. A batch holds as much audio as the listener has in hand (the
 * job's earlier batches, and the time until the job is due), at least `MIN_BATCH_SECONDS` and
 * at most `MAX_BATCH_SECONDS`: so a listener who is waiting gets the first chunk at once, and a
 * later clause, started ahead of its need, goes in one or two messages. A clause is spoken at
 * tens to hundreds of times real time, so a batch is made long before its listener has played
 * the audio in hand.
 */
const MIN_BATCH_SECONDS = 0.5;
const MAX_BATCH_SECONDS = 2;
/** A listener with less audio than this in hand is waiting: what comes goes at once. */
const WAITING_BELOW_SECONDS = 0.05;

function send(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

async function engineFor(voice: EngineVoice): Promise<SpeechEngine> {
  const existing = loaded.get(voice.engine);
  if (existing) return existing;
  const engine = await engines[voice.engine].load(prepared[voice.engine]);
  loaded.set(voice.engine, engine);
  return engine;
}

/** Sends bytes without a copy when they own their whole buffer, which is the usual case. */
function sendChunk(jobId: number, bytes: Uint8Array): void {
  const owned =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  send({ type: 'chunk', jobId, bytes: owned }, [owned.buffer as ArrayBuffer]);
}

type Outcome = 'done' | 'cancelled' | 'yielded';

/**
 * One clause from engine to encoded bytes. `deliver` gets the bytes after the first `skip`;
 * `stop` is asked between engine chunks, with the bytes delivered so far, whether to stop.
 */
async function speak(
  message: Extract<ToWorker, { type: 'synthesize' }>,
  deliver: (bytes: Uint8Array) => void,
  stop: (delivered: number) => Exclude<Outcome, 'done'> | undefined,
): Promise<{ outcome: Outcome; delivered: number; words: EngineWord[] }> {
  const engine = await engineFor(message.voice);
  const sampleRate = engine.sampleRate(message.voice);
  const encoder = encoders.get(sampleRate, message.output);
  // The voice's level, once, before the encoder resamples: the same gain for every clause.
  const level = createLevelStage(message.gainDb, sampleRate);
  let produced = 0;
  let outcome: Outcome = 'done';
  const words: EngineWord[] = [];
  const take = (bytes: Uint8Array) => {
    const from = produced;
    produced += bytes.byteLength;
    if (produced > message.skip) deliver(from >= message.skip ? bytes : bytes.subarray(message.skip - from));
  };
  await engine.synthesize(message.input, message.voice, message.rate, {
    push: (samples) => take(encoder.encode(level.process(samples))),
    ...(message.words ? { word: (word: EngineWord) => void words.push(word) } : {}),
    cancelled: () => {
      if (outcome === 'done') outcome = stop(Math.max(produced, message.skip)) ?? 'done';
      return outcome !== 'done';
    },
  });
  if (outcome === 'done') {
    take(encoder.encode(level.flush()));
    take(encoder.flush());
  }
  return { outcome, delivered: Math.max(produced, message.skip), words };
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

/** Runs a job for the pool: first bytes at once, then batches; stops when cancelled or when it yields. */
async function synthesizeJob(message: Extract<ToWorker, { type: 'synthesize' }>): Promise<void> {
  const { jobId, yieldWindow } = message;
  const rate = bytesPerSecond(message.output);
  const ahead = rate * message.aheadSeconds;
  let sent = message.skip;
  /** Bytes the next batch holds before it leaves: none while the listener is waiting. */
  const batchBytes = () => {
    const inHand = ahead + sent - message.skip;
    if (inHand < rate * WAITING_BELOW_SECONDS) return 0;
    return Math.min(rate * MAX_BATCH_SECONDS, Math.max(rate * MIN_BATCH_SECONDS, inHand));
  };
  let batch: Uint8Array[] = [];
  let batched = 0;
  const flush = () => {
    if (batched === 0) return;
    sendChunk(jobId, joinBytes(batch, batched));
    sent += batched;
    batch = [];
    batched = 0;
  };
  const { outcome, words } = await speak(
    message,
    (bytes) => {
      if (bytes.byteLength === 0) return;
      batch.push(bytes);
      batched += bytes.byteLength;
      if (batched >= batchBytes()) flush();
    },
    (delivered) => {
      if (Atomics.load(control, CONTROL_CANCEL) === jobId) return 'cancelled';
      const inWindow =
        yieldWindow !== undefined && delivered >= yieldWindow.fromBytes && delivered < yieldWindow.untilBytes;
      return inWindow && claimWaiting() ? 'yielded' : undefined;
    },
  );
  if (outcome === 'cancelled') {
    send({ type: 'done', jobId });
    return;
  }
  flush();
  if (outcome === 'yielded') {
    send({ type: 'yielded', jobId, delivered: sent });
    return;
  }
  send({ type: 'done', jobId, ...(words.length > 0 ? { words } : {}) });
}

async function run(message: ToWorker): Promise<void> {
  if (message.type === 'phonemes') {
    const engine = await engineFor(message.voice);
    send({ type: 'done', jobId: message.jobId, text: engine.phonemes(message.input, message.voice) });
    return;
  }
  await synthesizeJob(message);
}

/** Jobs the pool has sent that this worker has not finished: the warm-up speaks only while there are none. */
let jobsInHand = 0;
/** The warm-up sample being spoken after ready, if any: a job waits for it (they share the encoders). */
let warmingSample: Promise<void> | undefined;
/** Wakes the warm-up once the last job in hand has ended. */
let wakeWarmUp: (() => void) | undefined;

async function takeJob(message: ToWorker): Promise<void> {
  jobsInHand++;
  try {
    await warmingSample;
    await run(message);
  } catch (error) {
    send({
      type: 'error',
      jobId: message.jobId,
      message: error instanceof Error ? error.message : String(error),
    });
  } finally {
    jobsInHand--;
    if (jobsInHand === 0) wakeWarmUp?.();
  }
}

/** The warm-up's samples after the first round, one at a time, each only while no job is in hand. */
async function warmBetweenJobs(samples: readonly (() => Promise<void>)[]): Promise<void> {
  for (const sample of samples) {
    // A job that arrived meanwhile is taken first.
    await new Promise((resolve) => setImmediate(resolve));
    while (jobsInHand > 0) await new Promise<void>((resolve) => (wakeWarmUp = resolve));
    warmingSample = sample();
    await warmingSample;
    warmingSample = undefined;
  }
}

async function start(): Promise<void> {
  // A sample that fails (a voice pack whose runtime dies on it) is left out and reported: its
  // voice fails its own requests later, and the worker serves every other voice.
  const ignore = () => {};
  const never = () => undefined;
  const failed = new Map<number, string>();
  const rounds = Array.from({ length: WARM_UP_ROUNDS }, (_, round) =>
    warmUp.samples.map(({ input, voice, gainDb }, i) => async () => {
      const output: OutputSpec | undefined = warmUp.outputs[(i + round) % warmUp.outputs.length];
      if (!output || failed.has(i)) return;
      await speak(
        {
          type: 'synthesize',
          jobId: 0,
          input,
          voice,
          rate: 1,
          gainDb: gainDb ?? 0,
          output,
          skip: 0,
          aheadSeconds: 0,
        },
        ignore,
        never,
      ).then(
        () => {},
        (error: unknown) => {
          failed.set(i, `${voice.engine}: ${error instanceof Error ? error.message : error}`);
        },
      );
    }),
  );
  const [first = [], ...later] = rounds;
  for (const sample of first) await sample();
  port?.on('message', (message: ToWorker) => void takeJob(message));
  send({ type: 'ready', failed: [...failed.values()] });
  await warmBetweenJobs(later.flat());
}

await start();
