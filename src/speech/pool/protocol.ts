import type { EngineId, EngineInput, EngineVoice, EngineWord } from '../engines/engine.ts';

/** What a synthesis job asks the worker to deliver: audio at this rate, in this encoding. */
export interface OutputSpec {
  readonly sampleRate: number;
  readonly encoding: 'pcm_s16le' | 'mulaw' | 'alaw';
}

/** Bytes of one second of `output`. */
export function bytesPerSecond(output: OutputSpec): number {
  return output.sampleRate * (output.encoding === 'pcm_s16le' ? 2 : 1);
}

/**
 * When a running job may give its worker up to a more urgent one, in bytes it has delivered:
 * from `fromBytes` (its listener then has that much audio to play while it waits) up to
 * `untilBytes` (beyond, speaking the start again on resumption would cost too much).
 */
export interface YieldWindow {
  readonly fromBytes: number;
  readonly untilBytes: number;
}

/** Messages from the pool to a worker, keyed by job id. */
export type ToWorker =
  | {
      readonly type: 'synthesize';
      readonly jobId: number;
      readonly input: EngineInput;
      readonly voice: EngineVoice;
      /** Speaking rate as a multiple of the voice's own. */
      readonly rate: number;
      /** The voice's calibrated gain (`Voice.gainDb`), applied with the limiter before resampling. */
      readonly gainDb: number;
      readonly output: OutputSpec;
      /**
       * Bytes an earlier, interrupted run of this job already delivered. The engine cannot
       * resume mid-clause, so the worker speaks the clause again and drops these: synthesis is
       * deterministic, so what follows joins them exactly.
       */
      readonly skip: number;
      /**
       * Seconds until the job is due when it starts (0 when it is due or late): audio its listener
       * still has in hand, which lets the worker send its audio in fewer, larger messages.
       */
      readonly aheadSeconds: number;
      /** Absent: the job runs to its end. */
      readonly yieldWindow?: YieldWindow;
      /** Report the engine's word events in `done` (only a caller that asked for them gets them). */
      readonly words?: boolean;
    }
  | {
      readonly type: 'phonemes';
      readonly jobId: number;
      readonly input: EngineInput;
      readonly voice: EngineVoice;
    };

/** Messages from a worker to the pool. `chunk` bytes are transferred, not copied. */
export type FromWorker =
  /** Warmed; `failed` names the warm-up samples that could not be spoken (their engine's error). */
  | { readonly type: 'ready'; readonly failed: readonly string[] }
  | { readonly type: 'chunk'; readonly jobId: number; readonly bytes: Uint8Array }
  /** `text`: a phonemes job's answer; `words`: the words of a whole clause, when the engine reports them. */
  | {
      readonly type: 'done';
      readonly jobId: number;
      readonly text?: string;
      readonly words?: readonly EngineWord[];
    }
  /** The job stopped at the pool's request after delivering `delivered` bytes in all. */
  | { readonly type: 'yielded'; readonly jobId: number; readonly delivered: number }
  | { readonly type: 'error'; readonly jobId: number; readonly message: string };

/**
 * What a worker speaks at start: every sample in every output, a few times, so the engine,
 * resamplers and encoders have all run (and been compiled) before the first request. The first
 * round before it reports ready, the others while it has no job (`worker-thread.ts`).
 */
export interface WarmUpPlan {
  readonly samples: readonly {
    readonly input: EngineInput;
    readonly voice: EngineVoice;
    /** The voice's calibrated gain; 0 dB when absent. */
    readonly gainDb?: number;
  }[];
  readonly outputs: readonly OutputSpec[];
}

/** `WorkerData.control[CONTROL_CANCEL]`: the id of a job to stop. */
export const CONTROL_CANCEL = 0;

/**
 * Data each worker is started with, shared memory read between engine chunks: the engine blocks
 * the worker's thread while it speaks, so no message could reach it then. `control` is the
 * worker's own; `waiting` (one count, the same for every worker) is how many waiting jobs a
 * running job inside its yield window may give its worker up to: a worker that yields takes one.
 */
export interface WorkerData {
  readonly control: Int32Array;
  readonly waiting: Int32Array;
  readonly warmUp: WarmUpPlan;
  /** What each engine prepared once for every worker (`EngineDescriptor.prepare`), by engine. */
  readonly prepared: Partial<Record<EngineId, unknown>>;
  /** How much to lower the worker thread's scheduling priority (`lowerThreadPriority`). */
  readonly niceness: number;
}
