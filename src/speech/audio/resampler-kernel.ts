import { recordedModuleBytes } from '../runtime/recorded-wasm.ts';

// The resampler's filter loop in WebAssembly SIMD (`resampler-kernel/kernel.c`, built by its
// `build.sh`): four multiply-adds at a time in 32-bit floats, where the JavaScript loop did one in
// 64-bit. An instance per resampler backend (per thread), its memory holding that backend's
// filter tables, then the window and output of the call in progress.

const MODULE_URL = new URL('./resampler-kernel/kernel.wasm', import.meta.url);
/** The kernel's stack and nothing else lie below this; the tables start here. */
const FIRST_FREE_BYTE = 65_536;
const PAGE_BYTES = 65_536;
/** Each phase of a table is padded with zero coefficients to a multiple of this many taps. */
export const KERNEL_TAPS_MULTIPLE = 8;

type Drain = (
  window: number,
  phases: number,
  taps: number,
  up: number,
  down: number,
  position: number,
  count: number,
  out: number,
) => void;

let compiled: WebAssembly.Module | undefined;

/** The module, compiled on first use in each thread (900 bytes: at once). */
function kernelModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(recordedModuleBytes(MODULE_URL));
  return compiled;
}

const aligned = (byte: number) => Math.ceil(byte / 16) * 16;

export class FilterKernel {
  readonly #memory: WebAssembly.Memory;
  readonly #drain: Drain;
  /** Where the tables end: the call in progress uses the memory from here on. */
  #tablesEnd = FIRST_FREE_BYTE;

  constructor() {
    const { exports } = new WebAssembly.Instance(kernelModule(), {});
    this.#memory = exports.memory as WebAssembly.Memory;
    this.#drain = exports.drain as Drain;
  }

  /** Copies a filter's phases (each padded to `KERNEL_TAPS_MULTIPLE`) into the kernel; returns where they lie. */
  addTable(phases: Float32Array): number {
    const at = aligned(this.#tablesEnd);
    this.#reserve(at + phases.byteLength);
    new Float32Array(this.#memory.buffer, at, phases.length).set(phases);
    this.#tablesEnd = at + phases.byteLength;
    return at;
  }

  /**
   * `count` output samples from `window`: output n is the dot product of the `stride`
   * coefficients of phase (position + n * down) mod up of the table at `table` with the window
   * samples from floor((position + n * down) / up). The window must hold every tap of them;
   * the padding's coefficients meet zeros past its end.
   */
  run(
    table: number,
    filter: { readonly stride: number; readonly up: number; readonly down: number },
    window: Float32Array,
    position: number,
    count: number,
  ): Int16Array {
    const windowAt = aligned(this.#tablesEnd);
    const windowLength = window.length + filter.stride;
    const outAt = aligned(windowAt + windowLength * Float32Array.BYTES_PER_ELEMENT);
    this.#reserve(outAt + count * Int16Array.BYTES_PER_ELEMENT);
    const copy = new Float32Array(this.#memory.buffer, windowAt, windowLength);
    copy.set(window);
    copy.fill(0, window.length);
    this.#drain(windowAt, table, filter.stride, filter.up, filter.down, position, count, outAt);
    return new Int16Array(this.#memory.buffer, outAt, count).slice();
  }

  /** Grows the memory to hold `bytes`. */
  #reserve(bytes: number): void {
    const missing = bytes - this.#memory.buffer.byteLength;
    if (missing > 0) this.#memory.grow(Math.ceil(missing / PAGE_BYTES));
  }
}
