import {
  compileEspeak,
  EspeakInstance,
  SYNTH_SSML_AND_PHONEMES,
} from '../../src/speech/engines/espeak-ng/wasm-runtime.ts';

/** espeak-ng's own settings: 175 words a minute, full volume, middle pitch and range. */
const DEFAULTS = { rate: 175, volume: 100, pitch: 50, range: 50 } as const;

export interface Spoken {
  /** The phoneme events of the synthesis, in order: what espeak-ng said. */
  readonly phonemes: string[];
  readonly samples: number;
}

/**
 * A function that speaks phoneme input (`[[...]]`, read as espeak-ng reads SSML and phonemes) in
 * one of espeak-ng's own voices (`sw`, `fr`, `en-us`...) and reports what it said.
 */
export async function espeakSpeaker(): Promise<(voice: string, input: string) => Spoken> {
  const instance = new EspeakInstance(await compileEspeak());
  return (voice, input) => {
    if (instance.setVoice(voice) !== 0) throw new Error(`espeak-ng has no ${voice} voice`);
    const phonemes: string[] = [];
    let samples = 0;
    instance.synthesize(input, SYNTH_SSML_AND_PHONEMES, DEFAULTS, (chunk, events) => {
      samples += chunk.length;
      for (const event of events)
        if (event.type === 'phoneme' && event.name !== '') phonemes.push(event.name);
      return false;
    });
    return { phonemes, samples };
  };
}
