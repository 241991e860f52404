import { type ChildProcess, fork } from 'node:child_process';
import { runnableModule } from '../../runtime/typescript-worker.ts';
import type { ChunkSink, EngineDescriptor, EngineInput, EngineVoice, SpeechEngine } from '../engine.ts';
import { packageVersion } from '../package-version.ts';
import type { RuntimePack, RuntimeReply, RuntimeRequest } from './runtime-protocol.ts';

/**
 * Neural voices (Piper's, MMS's) from installed packs, spoken by `sherpa-onnx-node` in a process
 * of its own (`runtime-process.ts`), one per pool worker: the runtime can end or crash the process
 * it runs in (a malformed model, an unknown espeak-ng voice), so a crash fails the clause it was
 * speaking and nothing else; the next clause starts a new process. Only packs that passed
 * `checkVoicePack` are given to it.
 *
 * Measured: the process adds about 0.5 ms a clause over calling the runtime in the worker (the
 * samples go as a structured clone, not JSON), and about 250 ms to start with a tiny model.
 */

export interface NeuralVoice extends EngineVoice {
  readonly engine: 'neural';
  readonly pack: RuntimePack;
  /** The model's sample rate (its pack's manifest). */
  readonly sampleRate: number;
  /** The speaker of a multi-speaker model; 0 for one that has one. */
  readonly speaker: number;
}

function asNeuralVoice(voice: EngineVoice): NeuralVoice {
  if (voice.engine !== 'neural') throw new Error(`the neural engine cannot speak a ${voice.engine} voice`);
  return voice as NeuralVoice;
}

/** How long the runtime may take to start (load itself and the first model) or to say a clause. */
const RUNTIME_TIMEOUT_MS = 60_000;

interface Clause {
  readonly id: number;
  readonly sink: ChunkSink;
  stopping: boolean;
  resolve(): void;
  reject(error: Error): void;
}

class NeuralEngine implements SpeechEngine {
  readonly id = 'neural' as const;
  #runtime: Promise<ChildProcess> | undefined;
  #clause: Clause | undefined;
  #nextId = 1;

  sampleRate(voice: EngineVoice): number {
    return asNeuralVoice(voice).sampleRate;
  }

  /** Neural voices read text, not phonemes: they have none to show. */
  phonemes(): string {
    return '';
  }

  async synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): Promise<void> {
    const neural = asNeuralVoice(voice);
    if (input.kind !== 'text') throw new Error('neural voices read text, not phonemes');
    if (sink.cancelled() || input.text.trim() === '') return;
    const runtime = await this.#start();
    const id = this.#nextId++;
    const timer = setTimeout(() => runtime.kill('SIGKILL'), RUNTIME_TIMEOUT_MS);
    try {
      await new Promise<void>((resolve, reject) => {
        this.#clause = { id, sink, stopping: false, resolve, reject };
        const request: RuntimeRequest = {
          type: 'speak',
          id,
          pack: neural.pack,
          text: input.text,
          speaker: neural.speaker,
          speed: rate,
        };
        runtime.send(request);
      });
    } finally {
      clearTimeout(timer);
      this.#clause = undefined;
    }
  }

  /** The runtime process, started if there is none (the first clause, or after one ended). */
  #start(): Promise<ChildProcess> {
    this.#runtime ??= new Promise<ChildProcess>((resolve, reject) => {
      const entry = runnableModule(new URL('./runtime-process.ts', import.meta.url));
      const child = fork(entry.url, [], {
        execArgv: entry.typescript ? ['--import', import.meta.resolve('tsx')] : [],
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let stderr = '';
      child.stderr?.on('data', (data: Buffer) => {
        stderr = (stderr + data.toString()).slice(-500);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), RUNTIME_TIMEOUT_MS);
      child.on('message', (reply: RuntimeReply) => {
        if (reply.type === 'ready') {
          clearTimeout(timer);
          resolve(child);
        } else this.#onReply(child, reply);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        this.#runtime = undefined;
        const error = new Error(`the neural runtime stopped (${signal ?? `exit ${code}`}): ${stderr.trim()}`);
        reject(error);
        this.#clause?.reject(error);
      });
    });
    return this.#runtime;
  }

  #onReply(runtime: ChildProcess, reply: Exclude<RuntimeReply, { type: 'ready' }>): void {
    const clause = this.#clause;
    if (!clause || clause.id !== reply.id) return;
    if (reply.type === 'samples') {
      if (clause.stopping) return;
      clause.sink.push(reply.samples);
      if (clause.sink.cancelled()) {
        // The runtime stops at its next chunk; the clause ends when it says so, never before,
        // so two clauses never run in it at once.
        clause.stopping = true;
        runtime.send({ type: 'stop', id: clause.id } satisfies RuntimeRequest);
      }
    } else if (reply.type === 'done') clause.resolve();
    else clause.reject(new Error(`the neural runtime failed: ${reply.message}`));
  }
}

/** Neural voices from installed packs (Piper, MMS), through `sherpa-onnx-node`. */
export const neuralEngine: EngineDescriptor = {
  id: 'neural',
  name: 'sherpa-onnx',
  method: 'neural voices (VITS) from installed voice packs',
  licence: 'Apache-2.0 (sherpa-onnx; each voice pack has its own licence)',
  licenceUrl: 'https://github.com/k2-fsa/sherpa-onnx/blob/master/LICENSE',
  version: packageVersion('sherpa-onnx-node'),
  readsTextOnly: true,
  heavy: { callsPerWorker: 4 },
  async load() {
    return new NeuralEngine();
  },
};
