// Node has WebAssembly at run time, but neither the ES library nor @types/node 20 declares it:
// these cover the part Ijwi uses (the Flite engine's WASI runner).
declare namespace WebAssembly {
  class Module {
    private constructor();
  }
  class Memory {
    private constructor();
    readonly buffer: ArrayBuffer;
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
