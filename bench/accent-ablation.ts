import { type AfricanEnglishRule, africanEnglishRules } from '../src/speech/engines/flite/african-english.ts';
import type { FliteVoice } from '../src/speech/engines/flite/flite.ts';
import type { Voice } from '../src/speech/voices/voices.ts';

// The ablation of `npm run bench:quality -- --ablation`: each African English voice built again
// with one accent rule or voice setting switched: a rule it speaks with, or a setting, switched
// off; a rule of the accent it does without, switched on. The bench measures what each feature
// costs in words and how many words it changes. These voices exist only here: the service's
// voices are the catalogue's.

/** What a rule or setting is called in the bench's table. */
export const featureNames: Readonly<
  Record<AfricanEnglishRule | 'everyRule' | 'pitchHz' | 'stretch', string>
> = {
  thStopping: 'th-stopping [θ] > [t]',
  dhStopping: 'th-stopping [ð] > [d]',
  nonRhotic: 'non-rhotic',
  nurse: 'NURSE [ɛ]',
  lettEr: 'unstressed -er [a]',
  nearCure: 'NEAR/CURE [ia ua]',
  fullVowels: 'full vowels from spelling',
  trapStrut: 'TRAP/STRUT [a]',
  kitFleece: 'KIT/FLEECE [i]',
  footGoose: 'FOOT/GOOSE [u]',
  lotThought: 'LOT/THOUGHT [ɔ]',
  spelledDay: '-day [dei]',
  everyRule: 'every rule',
  pitchHz: 'pitch target',
  stretch: 'duration stretch',
};
export type Feature = keyof typeof featureNames;

/** A voice of the bench: a catalogue voice, or one built from it with a feature switched. */
export interface BenchVoice {
  readonly voice: Voice;
  /** The catalogue voice it is built from (itself for a catalogue voice). */
  readonly of: Voice;
  readonly switched?: { readonly feature: Feature; readonly on: boolean };
}

const isFlite = (voice: Voice): voice is Voice & { engineVoice: FliteVoice } =>
  voice.engineVoice.engine === 'flite';

/**
 * The voice with `feature` switched: a rule it speaks with (or all of them) left out, a rule it
 * does without added, or the speaker's own pitch or pace.
 */
function switched(voice: Voice & { engineVoice: FliteVoice }, feature: Feature): BenchVoice {
  const { pitchHz: _pitch, ...ownPitch } = voice.engineVoice;
  const rules = voice.engineVoice.accentRules ?? africanEnglishRules;
  const on =
    feature !== 'everyRule' && africanEnglishRules.some((rule) => rule === feature && !rules.includes(rule));
  const engineVoice: FliteVoice =
    feature === 'pitchHz'
      ? ownPitch
      : feature === 'stretch'
        ? { ...voice.engineVoice, stretch: 1 }
        : {
            ...voice.engineVoice,
            accentRules:
              feature === 'everyRule'
                ? []
                : on
                  ? [...rules, feature]
                  : rules.filter((rule) => rule !== feature),
          };
  const name = `${voice.name} ${on ? 'with' : 'without'} ${featureNames[feature]}`;
  return { voice: { ...voice, name, engineVoice }, of: voice, switched: { feature, on } };
}

/**
 * An accented voice once for each feature switched: each rule of the accent (off if the voice
 * speaks with it, on if not), then all its rules off at once (what is left is the voice
 * settings' cost), its pitch target if it sets one, its duration stretch if it is not the
 * speaker's own.
 */
export function ablations(voice: Voice): BenchVoice[] {
  if (!isFlite(voice) || voice.engineVoice.accent === undefined) return [];
  const { pitchHz, stretch } = voice.engineVoice;
  const features: Feature[] = [
    ...africanEnglishRules,
    'everyRule',
    ...(pitchHz === undefined ? [] : (['pitchHz'] as const)),
    ...(stretch === 1 ? [] : (['stretch'] as const)),
  ];
  return features.map((feature) => switched(voice, feature));
}

/**
 * The US voice an accented voice is compared with: the same recorded speaker at its own pitch
 * and pace (Amani: Grace; Baraka: James).
 */
export function baseSpeakerOf(voice: Voice, voices: readonly Voice[]): Voice | undefined {
  if (!isFlite(voice)) return undefined;
  return voices.find(
    (other) =>
      isFlite(other) &&
      other.engineVoice.accent === undefined &&
      other.engineVoice.voice === voice.engineVoice.voice &&
      other.engineVoice.pitchHz === undefined &&
      other.engineVoice.stretch === 1,
  );
}
