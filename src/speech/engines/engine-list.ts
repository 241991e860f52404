import type { EngineDescriptor, EngineId } from './engine.ts';
import { espeakNgEngine } from './espeak-ng.ts';
import { fliteEngine } from './flite/flite.ts';
import { neuralEngine } from './neural/neural-engine.ts';

/**
 * Every engine Ijwi can run, by id: the registry's table without the text front-ends, for the pool
 * workers, which speak what the front-ends have already read (each worker holds about 1 MB less).
 * Everything else looks engines up in `registry.ts`.
 */
export const engines: Readonly<Record<EngineId, EngineDescriptor>> = {
  'espeak-ng': espeakNgEngine,
  flite: fliteEngine,
  neural: neuralEngine,
};
