import { parentPort, workerData } from 'node:worker_threads';
import { createStreamEncoderCache } from './audio/encoder.ts';
import type { EngineId, EngineVoice, SpeechEngine } from './engines/engine.ts';
import { engines } from './engines/registry.ts';
import type { FromWorker, OutputSpec, ToWorker, WorkerData } from './pool-protocol.ts';

// One engine pool thread: its own engine instances and resamplers, one job at a time. The
// engine blocks this thread while it speaks, so cancellation arrives through shared memory.

const port = parentPort;
if (!port) throw new Error('pool-worker must run in a worker thread');
const { cancel, warmUp } = workerData as WorkerData;
const loaded = new Map<EngineId, SpeechEngine>();
const encoders = await createStreamEncoderCache();
const WARM_UP_ROUNDS = 3;

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

/** Sends bytes without a copy when they own their whole buffer, which is the usual case. */
function sendChunk(jobId: number, bytes: Uint8Array): void {
  if (bytes.byteLength === 0) return;
  const owned =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  send({ type: 'chunk', jobId, bytes: owned }, [owned.buffer as ArrayBuffer]);
}

/** One clause from engine to encoded bytes, delivered chunk by chunk. */
async function speak(
  input: string,
  voice: EngineVoice,
  output: OutputSpec,
  deliver: (bytes: Uint8Array) => void,
  cancelled: () => boolean,
): Promise<void> {
  const engine = await engineFor(voice);
  const encoder = encoders.get(engine.sampleRate(voice), output);
  engine.synthesize(input, voice, { push: (samples) => deliver(encoder.encode(samples)), cancelled });
  if (!cancelled()) deliver(encoder.flush());
}

async function run(message: ToWorker): Promise<void> {
  const { jobId } = message;
  if (message.type === 'phonemes') {
    const engine = await engineFor(message.voice);
    send({ type: 'done', jobId, text: engine.phonemes(message.input, message.voice) });
    return;
  }
  await speak(
    message.input,
    message.voice,
    message.output,
    (bytes) => sendChunk(jobId, bytes),
    () => Atomics.load(cancel, 0) === jobId,
  );
  send({ type: 'done', jobId });
}

async function start(): Promise<void> {
  // Every sample each round, cycling through the outputs: each voice and each encoder runs
  // several times, enough for V8 to optimise them, without speaking every pair.
  const ignore = () => {};
  const never = () => false;
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const [i, { input, voice }] of warmUp.samples.entries()) {
      const output = warmUp.outputs[(i + round) % warmUp.outputs.length];
      if (output) await speak(input, voice, output, ignore, never);
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
  send({ type: 'ready' });
}

await start();
