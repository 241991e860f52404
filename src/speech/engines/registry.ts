import { type FrontEnd, frontEndFor } from '../text/front-end.ts';
import type { Voice } from '../voices.ts';
import type { EngineDescriptor, EngineId, IpaReading } from './engine.ts';
import { espeakNgEngine } from './espeak-ng.ts';
import { fliteEngine } from './flite/flite.ts';
import { neuralEngine } from './neural/neural-engine.ts';

/** Every engine Ijwi can run, by id. Callers look engines up here and never import one directly. */
export const engines: Readonly<Record<EngineId, EngineDescriptor>> = {
  'espeak-ng': espeakNgEngine,
  flite: fliteEngine,
  neural: neuralEngine,
};

/** How a voice reads IPA (SSML `phoneme`): in its engine's notation; undefined when it reads text only. */
export function ipaReaderOf(voice: Voice): ((ipa: string) => IpaReading) | undefined {
  const { readIpa } = engines[voice.engineVoice.engine];
  return readIpa && ((ipa) => readIpa(voice.language, ipa));
}

/** The front-end that reads a voice's text: the engine's input is text only when it reads nothing else. */
export function frontEndOf(voice: Voice): FrontEnd {
  return frontEndFor(voice.language, engines[voice.engineVoice.engine].readsTextOnly === true);
}
