import { type FrontEnd, frontEndFor } from '../text/front-end.ts';
import type { Voice } from '../voices/voices.ts';
import type { IpaReading } from './engine.ts';
import { engines } from './engine-list.ts';

/** Every engine Ijwi can run, by id. Callers look engines up here and never import one directly. */
export { engines };

/** How a voice reads IPA (SSML `phoneme`): in its engine's notation; undefined when it reads text only. */
export function ipaReaderOf(voice: Voice): ((ipa: string) => IpaReading) | undefined {
  const { readIpa } = engines[voice.engineVoice.engine];
  return readIpa && ((ipa) => readIpa(voice.language, ipa));
}

/** The front-end that reads a voice's text: the engine's input is text only when it reads nothing else. */
export function frontEndOf(voice: Voice): FrontEnd {
  return frontEndFor(voice.language, engines[voice.engineVoice.engine].readsTextOnly === true);
}
