/**
 * Runs Flite compiled to WASI: a command (it exports only `memory` and `_start`), so one
 * synthesis is one run of its `main` with Flite's command line. A new instance per run costs
 * about 50 ms (the module's 17 MB of data is copied into a new memory), several times the
 * synthesis itself; so each thread keeps one instance and, before every run, puts it back into
 * the state it had when new: the memory as it was after instantiation (about 1 ms to copy), the
 * pages it has grown since zeroed, and the stack pointer (its one mutable global, exported by
 * `wasm-binary.ts`) at its first value. A run then sees exactly what a new instance would, and
 * gives the same bytes (the tests compare the two).
 *
 * Each run gets an in-memory file system from `@bjorn3/browser_wasi_shim`, where Flite writes its
 * WAV, so nothing touches the disk. A run may instead stream its audio (`-o stream`): Flite's
 * streaming callback, rewritten by `wasm-binary.ts` to call the `fd_write` import with a
 * descriptor no file has, hands each stretch of samples to a listener while the vocoder runs,
 * and the listener can stop the run there. Node's own `node:wasi` is not used: it crashed the process
 * after about 17 instances in a loop.
 */
import { ConsoleStdout, File, type Inode, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';
import { type FliteRecipe, runnableFlite } from './pausable-binary.ts';
import type { MemoryRange } from './wasm-binary.ts';

/** The run's one directory: Flite writes its WAV there, and reads the files a run is given. */
export const RUN_DIR = '/run';
const OUT_FILE = 'speech.wav';
const STACK_POINTER = 'ijwi_stack_pointer';
/** Flite's `malloc`, exported: a paused run's C stack is kept in memory the run allocated. */
const MALLOC = 'ijwi_malloc';
/**
 * Bytes for Asyncify's copy of the C stack between `_start` and the streaming callback (its
 * frames' locals, a few KB): a run whose stack does not fit traps, and fails its clause.
 */
const UNWIND_BYTES = 64 * 1024;
const ASYNCIFY_NORMAL = 0;
const ASYNCIFY_UNWINDING = 1;
/** The descriptor the rewritten streaming callback writes to: negative, so no file's. */
const STREAM_FD = -7;
/** What the callback answers Flite: go on, or stop the synthesis (`CST_AUDIO_STREAM_*`). */
const STREAM_CONTINUE = 0;
const STREAM_STOP = -1;
/** Byte offsets in Flite's `cst_wave` (wasm32): `type, sample_rate, num_samples, num_channels, samples`. */
const WAVE_SAMPLE_RATE = 4;
const WAVE_SAMPLES = 16;
const MAX_MESSAGES = 20;
const MAX_PRINTED = 64 * 1024;
const encoder = new TextEncoder();

export interface FliteRun {
  readonly wav: Uint8Array;
  readonly printed: string;
}

/** What a listener tells Flite after taking a stretch of samples: go on, stop the run, or pause it. */
export type StreamAnswer = 'continue' | 'stop' | 'pause';

/**
 * Gets the samples of a streamed run as Flite makes them (a view of its memory, valid only
 * during the call) and their rate, and answers what Flite does next.
 */
export type SampleListener = (samples: Int16Array, sampleRate: number) => StreamAnswer;

/** A streamed run's end, or the run paused mid-clause, to be resumed with `FliteRunner.resume`. */
export interface StreamedRun {
  readonly printed: string;
  readonly paused?: PausedRun;
}

/** Flite's module, compiled once per thread, and where its read-only data lies in memory. */
export interface CompiledFlite {
  readonly module: WebAssembly.Module;
  readonly readOnly: MemoryRange | undefined;
}

/** How the runner's binary is made from Flite's (`pausable-binary.ts`). */
export const FLITE_RECIPE: FliteRecipe = {
  stackPointer: STACK_POINTER,
  streamFd: STREAM_FD,
  mallocExport: MALLOC,
};

export async function compileFlite(): Promise<CompiledFlite> {
  const { binary, readOnly } = await runnableFlite(FLITE_RECIPE);
  return { module: await WebAssembly.compile(binary), readOnly };
}

interface FliteExports {
  readonly memory: WebAssembly.Memory;
  readonly _start: () => unknown;
  readonly [STACK_POINTER]: WebAssembly.Global;
  readonly [MALLOC]: (bytes: number) => number;
  /** Asyncify's (`pausable-binary.ts`): state 0 is running normally, 1 unwinding, 2 rewinding. */
  readonly asyncify_get_state: () => number;
  readonly asyncify_start_unwind: (data: number) => void;
  readonly asyncify_stop_unwind: () => void;
  readonly asyncify_start_rewind: (data: number) => void;
  readonly asyncify_stop_rewind: () => void;
}

/** One run's WASI (its files and descriptors) and what it printed. */
interface RunState {
  readonly wasi: WASI;
  readonly files: Map<string, Inode>;
  readonly printed: () => string;
  readonly messages: readonly string[];
  /** Where Asyncify keeps the run's C stack while it is paused (allocated at its first pause). */
  unwindData: number | undefined;
}

/**
 * A streamed run stopped mid-clause: what it wrote to memory (all but the read-only data, which
 * no run writes; the zeroes at the top of its memory left out), its stack pointer, and its WASI.
 * Resumed on the runner that paused it (`FliteRunner.resume`), it goes on as if never stopped.
 */
export class PausedRun {
  readonly run: RunState;
  readonly below: Uint8Array;
  readonly above: Uint8Array;
  readonly stackPointer: number;

  constructor(run: RunState, below: Uint8Array, above: Uint8Array, stackPointer: number) {
    this.run = run;
    this.below = below;
    this.above = above;
    this.stackPointer = stackPointer;
  }

  /** The memory it keeps while paused. */
  get bytes(): number {
    return this.below.byteLength + this.above.byteLength;
  }
}

/** One Flite instance, run again and again from its first state. Not reentrant (one per thread). */
export class FliteRunner {
  readonly #instance: WebAssembly.Instance;
  readonly #exports: FliteExports;
  /** The first memory, but for the read-only data: what is below it, and what is above it. */
  readonly #firstBelow: Uint8Array;
  readonly #firstAbove: Uint8Array;
  readonly #aboveStart: number;
  readonly #firstStackPointer: number;
  /** The run in progress: the instance's imports call through to its WASI. */
  #run: RunState | undefined;
  /** The listener of the streamed run in progress. */
  #listener: SampleListener | undefined;
  /** True while a resumed run rewinds to where it paused (the streaming callback's call). */
  #rewinding = false;
  /** True once the streaming callback has begun to unwind the run's stack to pause it. */
  #unwinding = false;

  constructor({ module, readOnly }: CompiledFlite) {
    const imports = new Proxy({} as Record<string, (...args: number[]) => unknown>, {
      get: (_target, name: string) => {
        return (...args: number[]) => {
          if (!this.#run) throw new Error('flite called WASI outside a run');
          const [fd = 0, wave = 0, start = 0, size = 0] = args;
          if (name === 'fd_write' && fd === STREAM_FD) return this.#streamed(wave, start, size);
          return (this.#run.wasi.wasiImport[name] as (...a: number[]) => unknown)(...args);
        };
      },
    });
    this.#instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
    this.#exports = this.#instance.exports as unknown as FliteExports;
    const memory = new Uint8Array(this.#exports.memory.buffer);
    this.#firstBelow = memory.slice(0, readOnly?.start ?? 0);
    this.#aboveStart = readOnly?.end ?? 0;
    this.#firstAbove = memory.slice(this.#aboveStart);
    this.#firstStackPointer = this.#exports[STACK_POINTER].value as number;
  }

  /** The instance's memory: it grows to what the longest clause needs, then stays. */
  get memoryBytes(): number {
    return this.#exports.memory.buffer.byteLength;
  }

  /**
   * Runs `flite <args> -o <wav>` and returns the WAV it wrote and what it printed (its `-pr`
   * segments, say; the first 64 KiB). `args` are passed as separate argument strings, never
   * through a shell. `inputs` are files (name -> text) put in `RUN_DIR` for this run only.
   * Throws when Flite writes no WAV (its messages are kept for the error): Flite exits with 0
   * even then.
   */
  run(args: readonly string[], inputs: Readonly<Record<string, string>> = {}): FliteRun {
    const run = this.#newRun([...args, '-o', `${RUN_DIR}/${OUT_FILE}`], inputs);
    this.#execute(run, undefined);
    const wav = run.files.get(OUT_FILE);
    if (!(wav instanceof File)) throw new Error(failure(run, 0));
    return { wav: wav.data, printed: run.printed() };
  }

  /**
   * Runs `flite <args> -o stream`: the samples go to `listener` while Flite synthesises, and
   * the run ends early when the listener answers `stop`, or pauses when it answers `pause`:
   * it then comes back with `paused`, which `resume` continues. Returns what Flite printed.
   */
  stream(
    args: readonly string[],
    listener: SampleListener,
    inputs: Readonly<Record<string, string>> = {},
  ): StreamedRun {
    return this.#streamRun(this.#newRun([...args, '-o', 'stream'], inputs), listener, undefined);
  }

  /**
   * Goes on with a run this runner paused, from the samples after the last its listener took,
   * now to `listener`; it may pause again. Other runs may have run in between: the run's memory
   * and stack pointer are put back first.
   */
  resume(paused: PausedRun, listener: SampleListener): StreamedRun {
    const { run } = paused;
    if (run.unwindData === undefined) throw new Error('the run was not paused');
    const memory = new Uint8Array(this.#exports.memory.buffer);
    memory.set(paused.below, 0);
    memory.set(paused.above, this.#aboveStart);
    memory.fill(0, this.#aboveStart + paused.above.length);
    this.#exports[STACK_POINTER].value = paused.stackPointer;
    return this.#streamRun(run, listener, run.unwindData);
  }

  #streamRun(run: RunState, listener: SampleListener, rewindFrom: number | undefined): StreamedRun {
    this.#listener = listener;
    try {
      const paused = this.#execute(run, rewindFrom);
      return paused ? { printed: run.printed(), paused } : { printed: run.printed() };
    } finally {
      this.#listener = undefined;
    }
  }

  /** A run of `flite <argv>` from the instance's first state, with `inputs` in its directory. */
  #newRun(argv: readonly string[], inputs: Readonly<Record<string, string>>): RunState {
    const files = new Map<string, Inode>(
      Object.entries(inputs).map(([name, text]) => [name, new File(encoder.encode(text))]),
    );
    const messages: string[] = [];
    const decoder = new TextDecoder();
    let printed = '';
    const stdout = new ConsoleStdout((bytes) => {
      if (printed.length < MAX_PRINTED) printed += decoder.decode(bytes, { stream: true });
    });
    const stderr = ConsoleStdout.lineBuffered((line) => {
      if (messages.length < MAX_MESSAGES) messages.push(line);
    });
    const wasi = new WASI(
      ['flite', ...argv],
      [],
      [new OpenFile(new File([])), stdout, stderr, new PreopenDirectory(RUN_DIR, files)],
      // The shim's trace of every call goes to the console unless it is turned off.
      { debug: false },
    );
    this.#reset();
    return { wasi, files, printed: () => printed.slice(0, MAX_PRINTED), messages, unwindData: undefined };
  }

  /**
   * Runs (or, from `rewindFrom`, resumes) `run` until it exits or pauses: the paused run, or
   * undefined once it has ended. Throws when it exits with an error.
   */
  #execute(run: RunState, rewindFrom: number | undefined): PausedRun | undefined {
    this.#run = run;
    this.#unwinding = false;
    this.#rewinding = rewindFrom !== undefined;
    try {
      if (rewindFrom !== undefined) this.#exports.asyncify_start_rewind(rewindFrom);
      const code = run.wasi.start(this.#instance as unknown as { exports: FliteExports });
      if (this.#unwinding) {
        this.#exports.asyncify_stop_unwind();
        return this.#paused(run);
      }
      if (code !== 0) throw new Error(failure(run, code));
      return undefined;
    } finally {
      this.#run = undefined;
      this.#settleAsyncify();
    }
  }

  /** The paused run's memory (the zeroes at its top left out) and stack pointer. */
  #paused(run: RunState): PausedRun {
    const memory = new Uint8Array(this.#exports.memory.buffer);
    const words = new Uint32Array(this.#exports.memory.buffer);
    let end = words.length;
    const floor = Math.ceil(this.#aboveStart / 4);
    while (end > floor && words[end - 1] === 0) end--;
    return new PausedRun(
      run,
      memory.slice(0, this.#firstBelow.length),
      memory.slice(this.#aboveStart, Math.max(this.#aboveStart, end * 4)),
      this.#exports[STACK_POINTER].value as number,
    );
  }

  /** Asyncify back to running normally, whatever a trap mid-unwind or mid-rewind left. */
  #settleAsyncify(): void {
    const state = this.#exports.asyncify_get_state();
    if (state === ASYNCIFY_NORMAL) return;
    if (state === ASYNCIFY_UNWINDING) this.#exports.asyncify_stop_unwind();
    else this.#exports.asyncify_stop_rewind();
  }

  /**
   * The rewritten streaming callback: `size` samples of `wave` from `start`, to the listener.
   * Called again by a resumed run as it rewinds: it then only answers as the paused call would
   * have (go on), its samples already taken.
   */
  #streamed(wave: number, start: number, size: number): number {
    if (this.#rewinding) {
      this.#rewinding = false;
      this.#exports.asyncify_stop_rewind();
      return STREAM_CONTINUE;
    }
    const memory = this.#exports.memory.buffer;
    const view = new DataView(memory);
    const samples = new Int16Array(memory, view.getUint32(wave + WAVE_SAMPLES, true) + start * 2, size);
    const answer = this.#listener?.(samples, view.getInt32(wave + WAVE_SAMPLE_RATE, true)) ?? 'stop';
    if (answer === 'continue') return STREAM_CONTINUE;
    if (answer === 'stop' || !this.#run) return STREAM_STOP;
    this.#startUnwind(this.#run);
    return STREAM_CONTINUE;
  }

  /** Begins to pause the run: Asyncify unwinds its stack into memory the run allocated. */
  #startUnwind(run: RunState): void {
    if (run.unwindData === undefined) {
      const data = this.#exports[MALLOC](UNWIND_BYTES);
      if (data === 0) throw new Error('flite could not allocate memory to pause a run');
      run.unwindData = data;
    }
    // Asyncify's data: where the saved stack goes next, and where its room ends.
    const view = new DataView(this.#exports.memory.buffer);
    view.setUint32(run.unwindData, run.unwindData + 8, true);
    view.setUint32(run.unwindData + 4, run.unwindData + UNWIND_BYTES, true);
    this.#unwinding = true;
    this.#exports.asyncify_start_unwind(run.unwindData);
  }

  /** The instance's memory as it is now (for the tests). */
  memorySnapshot(): Uint8Array {
    return new Uint8Array(this.#exports.memory.buffer).slice();
  }

  /**
   * The instance as it was when new: its memory (the read-only data, which no run writes, left
   * as it is), zeroes where it grew since, its stack pointer.
   */
  #reset(): void {
    const memory = new Uint8Array(this.#exports.memory.buffer);
    memory.set(this.#firstBelow, 0);
    memory.set(this.#firstAbove, this.#aboveStart);
    memory.fill(0, this.#aboveStart + this.#firstAbove.length);
    this.#exports[STACK_POINTER].value = this.#firstStackPointer;
  }
}

/** The error of a run that wrote nothing or exited with `code`, with Flite's messages. */
function failure(run: RunState, code: number): string {
  return `flite failed (exit ${code}): ${run.messages.join(' / ').slice(0, 300)}`;
}
