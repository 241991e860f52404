import type { EngineVoice } from './engines/engine.ts';

/** What a synthesis job asks the worker to deliver: audio at this rate, in this encoding. */
export interface OutputSpec {
  readonly sampleRate: number;
  readonly encoding: 'pcm_s16le' | 'mulaw' | 'alaw';
}

/** Messages from the pool to a worker, keyed by job id. */
export type ToWorker =
  | {
      readonly type: 'synthesize';
      readonly jobId: number;
      readonly input: string;
      readonly voice: EngineVoice;
      readonly output: OutputSpec;
    }
  | {
      readonly type: 'phonemes';
      readonly jobId: number;
      readonly input: string;
      readonly voice: EngineVoice;
    };

/** Messages from a worker to the pool. `chunk` bytes are transferred, not copied. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'chunk'; readonly jobId: number; readonly bytes: Uint8Array }
  | { readonly type: 'done'; readonly jobId: number; readonly text?: string }
  | { readonly type: 'error'; readonly jobId: number; readonly message: string };

/**
 * What a worker speaks before it reports ready: every sample in every output, a few times, so
 * the engine, resamplers and encoders have all run (and been compiled) before the first request.
 */
export interface WarmUpPlan {
  readonly samples: readonly { readonly input: string; readonly voice: EngineVoice }[];
  readonly outputs: readonly OutputSpec[];
}

/** Data each worker is started with. `cancel[0]` holds the id of a job to stop. */
export interface WorkerData {
  readonly cancel: Int32Array;
  readonly warmUp: WarmUpPlan;
}
