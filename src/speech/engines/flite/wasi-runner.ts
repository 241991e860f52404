/**
 * Runs Flite compiled to WASI: a command (it exports only `memory` and `_start`), so one
 * synthesis is one run of its `main` with Flite's command line. A new instance per run costs
 * about 50 ms (the module's 17 MB of data is copied into a new memory), several times the
 * synthesis itself; so each thread keeps one instance and, after every run, puts it back into
 * the state it had when new: the memory as it was after instantiation (about 1 ms to copy), the
 * pages it has grown since zeroed, and the stack pointer (its one mutable global, exported by
 * `wasm-binary.ts`) at its first value. A run then sees exactly what a new instance would, and
 * gives the same bytes (the tests compare the two). The reset comes after a run rather than
 * before the next, so that a clause's first audio does not wait for it (zeroing the pages a long
 * clause grew, 4 MB, takes a tenth of a millisecond or more) when the thread was idle.
 *
 * Each run gets an in-memory file system from `@bjorn3/browser_wasi_shim`, where Flite writes its
 * WAV, so nothing touches the disk. A run may instead stream its audio (`-o stream`): Flite's
 * streaming callback, rewritten by `wasm-binary.ts` to call the `fd_write` import with a
 * descriptor no file has, hands each stretch of samples to a listener while the vocoder runs,
 * and the listener can stop the run there. Node's own `node:wasi` is not used: it crashed the process
 * after about 17 instances in a loop.
 */

import { once } from 'node:events';
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConsoleStdout, File, type Inode, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';
import { recordedChecksum, recordedModuleBytes } from '../../runtime/recorded-wasm.ts';
import { startTypeScriptWorker } from '../../runtime/typescript-worker.ts';
import { type ReadOnlyData, readOnlyData, rewriteFlite } from './wasm-binary.ts';

/** Flite's module, built by `wasm/build.sh` from its source, beside the SHA-256 it recorded. */
const MODULE_URL = new URL('./wasm/flite.wasm', import.meta.url);

/**
 * The voices built into the module (`wasm/build.sh`): `slt` (Grace, Olivia, Amani), `rms`
 * (James, Baraka) and `kal` (8 kHz diphones, the accent's lexicon look-ups).
 */
export const FLITE_VOICES = ['slt', 'rms', 'kal'] as const;

/** Flite's release and the recorded SHA-256 of the module: what decides a clause's bytes. */
export function fliteModuleVersion(): string {
  return `2.2+wasm.${recordedChecksum(MODULE_URL).slice(0, 12)}`;
}

/** The run's one directory: Flite writes its WAV there, and reads the files a run is given. */
export const RUN_DIR = '/run';
const OUT_FILE = 'speech.wav';
const STACK_POINTER = 'ijwi_stack_pointer';
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

/**
 * Gets the samples of a streamed run as Flite makes them (a view of its memory, valid only
 * during the call) and their rate; returns false to stop the run.
 */
export type SampleListener = (samples: Int16Array, sampleRate: number) => boolean;

/**
 * Flite's module, compiled once for every thread, and its read-only data: where it lies in
 * memory, and where its bytes are in the file, since the module leaves them out.
 */
export interface CompiledFlite {
  readonly module: WebAssembly.Module;
  readonly readOnly: (ReadOnlyData & { readonly file: string }) | undefined;
}

/**
 * Flite compiled once for every pool worker, in a thread of its own that ends once it has sent
 * the module: the compilation reads and rewrites the 21 MB binary, and the memory that held it
 * goes with that thread instead of waiting in a worker's (or the pool's) heap for a collection.
 * The workers share the module's compiled code.
 */
export async function compileFliteInThread(): Promise<CompiledFlite> {
  const thread = startTypeScriptWorker(new URL('./compile-thread.ts', import.meta.url), undefined);
  try {
    const [compiled] = (await once(thread, 'message')) as [unknown];
    if (!isCompiledFlite(compiled)) throw new Error('the Flite compilation sent no module');
    return compiled;
  } finally {
    await thread.terminate();
  }
}

/** True for a `CompiledFlite`, as a worker is sent one. */
export function isCompiledFlite(value: unknown): value is CompiledFlite {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Partial<CompiledFlite>).module instanceof WebAssembly.Module
  );
}

export async function compileFlite(): Promise<CompiledFlite> {
  const binary = recordedModuleBytes(MODULE_URL);
  const readOnly = readOnlyData(binary);
  return {
    module: await WebAssembly.compile(
      rewriteFlite(binary, {
        stackPointer: STACK_POINTER,
        streamFd: STREAM_FD,
        leaveOutReadOnlyData: readOnly !== undefined,
      }),
    ),
    readOnly: readOnly && { ...readOnly, file: fileURLToPath(MODULE_URL) },
  };
}

/**
 * Whether a command line starts with `-voice NAME`, a name of `voices`, and names no other: a
 * later `-voice` is allowed only as the text or phones after `-t` or `-p`, which Flite never
 * reads as an option.
 */
function namesVoice(argv: readonly string[], voices: readonly string[]): boolean {
  if (argv[0] !== '-voice' || !voices.includes(argv[1] ?? '')) return false;
  return argv.every((arg, i) => i === 0 || arg !== '-voice' || argv[i - 1] === '-t' || argv[i - 1] === '-p');
}

/** Fills `target` with the bytes of `file` from `position`, read straight into it. */
function readInto(target: Uint8Array, file: string, position: number): void {
  const fd = openSync(file, 'r');
  try {
    for (let done = 0; done < target.length; ) {
      const read = readSync(fd, target, done, target.length - done, position + done);
      if (read === 0) throw new Error(`${file} ends before its read-only data`);
      done += read;
    }
  } finally {
    closeSync(fd);
  }
}

interface FliteExports {
  readonly memory: WebAssembly.Memory;
  readonly _start: () => unknown;
  readonly [STACK_POINTER]: WebAssembly.Global;
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
  /** The WASI of the run in progress: the instance's imports call through to it. */
  #wasi: WASI | undefined;
  /** The listener of the streamed run in progress. */
  #listener: SampleListener | undefined;

  constructor({ module, readOnly }: CompiledFlite) {
    const imports = new Proxy({} as Record<string, (...args: number[]) => unknown>, {
      get: (_target, name: string) => {
        return (...args: number[]) => {
          if (!this.#wasi) throw new Error('flite called WASI outside a run');
          const [fd = 0, wave = 0, start = 0, size = 0] = args;
          if (name === 'fd_write' && fd === STREAM_FD) return this.#streamed(wave, start, size);
          return (this.#wasi.wasiImport[name] as (...a: number[]) => unknown)(...args);
        };
      },
    });
    this.#instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
    this.#exports = this.#instance.exports as unknown as FliteExports;
    const memory = new Uint8Array(this.#exports.memory.buffer);
    if (readOnly)
      readInto(memory.subarray(readOnly.start, readOnly.end), readOnly.file, readOnly.offsetInBinary);
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
    const { files, printed, failure } = this.#start([...args, '-o', `${RUN_DIR}/${OUT_FILE}`], inputs);
    const wav = files.get(OUT_FILE);
    if (!(wav instanceof File)) throw new Error(failure);
    return { wav: wav.data, printed };
  }

  /**
   * Runs `flite <args> -o stream`: the samples go to `listener` while Flite synthesises, and
   * the run ends early when the listener returns false. Returns what Flite printed.
   */
  stream(
    args: readonly string[],
    listener: SampleListener,
    inputs: Readonly<Record<string, string>> = {},
  ): { readonly printed: string } {
    this.#listener = listener;
    try {
      return { printed: this.#start([...args, '-o', 'stream'], inputs).printed };
    } finally {
      this.#listener = undefined;
    }
  }

  /**
   * One run of `flite <argv>` from the instance's first state: its files, what it printed, and
   * its messages as an error to throw if it made nothing. Throws when it exits with an error.
   */
  #start(
    argv: readonly string[],
    inputs: Readonly<Record<string, string>>,
  ): { files: Map<string, Inode>; printed: string; failure: string } {
    if (!namesVoice(argv, FLITE_VOICES)) {
      throw new Error(`flite runs here only as -voice ${FLITE_VOICES.join(', ')}, named first`);
    }
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
    this.#wasi = new WASI(
      ['flite', ...argv],
      [],
      [new OpenFile(new File([])), stdout, stderr, new PreopenDirectory(RUN_DIR, files)],
      // The shim's trace of every call goes to the console unless it is turned off.
      { debug: false },
    );
    try {
      const code = this.#wasi.start(this.#instance as unknown as { exports: FliteExports });
      const failure = `flite failed (exit ${code}): ${messages.join(' / ').slice(0, 300)}`;
      if (code !== 0) throw new Error(failure);
      return { files, printed: printed.slice(0, MAX_PRINTED), failure };
    } finally {
      this.#wasi = undefined;
      this.#reset();
    }
  }

  /** The rewritten streaming callback: `size` samples of `wave` from `start`, to the listener. */
  #streamed(wave: number, start: number, size: number): number {
    const memory = this.#exports.memory.buffer;
    const view = new DataView(memory);
    const samples = new Int16Array(memory, view.getUint32(wave + WAVE_SAMPLES, true) + start * 2, size);
    const keepGoing = this.#listener?.(samples, view.getInt32(wave + WAVE_SAMPLE_RATE, true)) ?? false;
    return keepGoing ? STREAM_CONTINUE : STREAM_STOP;
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
