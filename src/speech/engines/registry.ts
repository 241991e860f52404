import type { EngineDescriptor, EngineId } from './engine.ts';
import { espeakNgEngine } from './espeak-ng.ts';
import { fliteEngine } from './flite/flite.ts';

/** Every engine Ijwi can run, by id. Callers look engines up here and never import one directly. */
export const engines: Readonly<Record<EngineId, EngineDescriptor>> = {
  'espeak-ng': espeakNgEngine,
  flite: fliteEngine,
};
