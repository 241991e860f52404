// Node has WebAssembly at run time, but neither the ES library nor @types/node 20 declares it:
// these cover the part Ijwi uses (the engines' runtimes, the resampler's kernel).
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    private constructor();
    readonly buffer: ArrayBuffer;
    /** Adds `pages` pages of 64 KiB; returns the size before, in pages. */
    grow(pages: number): number;
  }
  class Global {
    private constructor();
    value: unknown;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  function compile(bytes: Uint8Array): Promise<Module>;
}
