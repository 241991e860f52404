import { allVoices, type Voice } from '../../speech/voices/voices.ts';
import { ApiError } from '../errors.ts';

// Every compatible protocol names a voice by an id (ElevenLabs' `voice_id`, Vapi's path, Deepgram's
// model...): an Ijwi voice's name in lower case (`keza` ... `aline`), which sets the language.

/** The id of an Ijwi voice. */
export function voiceIdOf(voice: Voice): string {
  return voice.name.toLowerCase();
}

/** The voice an id names, exactly (another case is no id); undefined for none. */
export function voiceForId(voiceId: string): Voice | undefined {
  return allVoices().find((voice) => voiceIdOf(voice) === voiceId);
}

/** The voice a path's id names, or the 404 that lists the ids (`param` names the path's field). */
export function voiceOfPath(voiceId: string, param = 'voice_id'): Voice {
  const voice = voiceForId(voiceId);
  if (voice) return voice;
  const ids = allVoices().map(voiceIdOf).join(', ');
  throw new ApiError(
    'not_found',
    `no voice has the id ${JSON.stringify(voiceId).slice(0, 60)}; the voice ids are ${ids}`,
    { param },
  );
}
