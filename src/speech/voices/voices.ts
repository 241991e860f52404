import type { EspeakVariant, EspeakVoice } from '../engines/espeak-ng.ts';
import type { FliteVoice, FliteVoiceName } from '../engines/flite/flite.ts';
import type { PackLicence } from '../engines/neural/model-card.ts';
import type { NeuralVoice } from '../engines/neural/neural-engine.ts';
import type { LanguageCode } from '../text/verbalizer.ts';

export type VoiceGroup = 'kinyarwanda' | 'us-english' | 'african-english' | 'french';

/** One of the voices of the API: the pair (language, speaker_id) is its public identity. */
export interface Voice {
  readonly language: LanguageCode;
  readonly speakerId: number;
  readonly name: string;
  readonly gender: 'female' | 'male';
  readonly group: VoiceGroup;
  /** The rate of the audio the engine produces, and of the WAV files. */
  readonly sampleRate: number;
  readonly engineVoice: EspeakVoice | FliteVoice | NeuralVoice;
  /**
   * The fixed gain, in dB, that brings the voice to the loudness target (`loudness/calibration.ts`),
   * measured by `npm run bench:loudness` for a built-in voice and at install for a pack's speaker.
   * Absent only for a pack speaker never measured: spoken as its engine makes it (still under the
   * true-peak ceiling), and listed without a loudness.
   */
  readonly gainDb?: number;
  /** The installed voice pack an operator assigned to this voice; absent for a built-in voice. */
  readonly pack?: AssignedPack;
}

/** What the listing says of a voice pack assigned to a voice (`assigned-voices.ts`). */
export interface AssignedPack {
  /** The installed pack's id (`npm run admin -- voice list`). */
  readonly id: string;
  /**
   * A digest of the pack's model and tokens as they were when it was assigned: a pack installed
   * again under the same id speaks differently, and the clause cache must tell them apart.
   */
  readonly version: string;
  readonly name: string;
  /** The pack's speaker that speaks the voice. */
  readonly speaker: string;
  readonly licence: PackLicence;
  readonly attribution: string;
}

export interface Language {
  readonly code: LanguageCode;
  readonly name: string;
  readonly defaultSpeakerId: number;
}

export const languages: readonly Language[] = [
  { code: 'rw', name: 'Kinyarwanda', defaultSpeakerId: 0 },
  { code: 'en', name: 'English', defaultSpeakerId: 0 },
  { code: 'fr', name: 'French', defaultSpeakerId: 0 },
];

// Formant scalings (percent of the base voice's frequencies) give each voice its own vocal
// tract: lower for deeper, larger speakers, higher for brighter ones. Pitch sets the register.
export const deeper = [
  [1, 92, 100, 100],
  [2, 94, 100, 100],
  [3, 95, 100, 100],
] as const;
export const brighter = [
  [1, 106, 100, 100],
  [2, 108, 95, 100],
  [3, 106, 90, 100],
] as const;

function variant(
  id: string,
  gender: 'male' | 'female',
  pitch: readonly [number, number],
  more: Partial<EspeakVariant> = {},
): EspeakVariant {
  return { id, gender, pitch, ...more };
}

function espeak(language: string, rate: number, v: EspeakVariant): EspeakVoice {
  return { engine: 'espeak-ng', language, rate, variant: v };
}

function flite(
  voice: FliteVoiceName,
  settings: Partial<Pick<FliteVoice, 'pitchHz' | 'stretch' | 'accent' | 'accentRules'>> = {},
): FliteVoice {
  return { engine: 'flite', voice, ...settings, stretch: settings.stretch ?? 1 };
}

/** Flite's voices speak at 16 kHz (all but `kal`, which is not in the catalogue). */
const FLITE_RATE = 16_000;

/**
 * Kinyarwanda and French are spoken by espeak-ng, Kinyarwanda through its Swahili voice fed with
 * our own phonemes (see text/rw/README.md). English is spoken by Flite's recorded speakers; the
 * African English voices read the lexicon's phones through the rules of an African English
 * accent (engines/flite/african-english.ts).
 */
export const builtInVoices: readonly Voice[] = [
  {
    language: 'rw',
    speakerId: 0,
    name: 'Keza',
    gender: 'female',
    group: 'kinyarwanda',
    sampleRate: 22050,
    gainDb: -2.8,
    engineVoice: espeak('sw', 150, variant('rw-0', 'female', [165, 250])),
  },
  {
    language: 'rw',
    speakerId: 1,
    name: 'Mugisha',
    gender: 'male',
    group: 'kinyarwanda',
    sampleRate: 22050,
    gainDb: 0.4,
    engineVoice: espeak('sw', 155, variant('rw-1', 'male', [82, 125], { formants: deeper })),
  },
  {
    language: 'rw',
    speakerId: 2,
    name: 'Ineza',
    gender: 'female',
    group: 'kinyarwanda',
    sampleRate: 22050,
    gainDb: -3.9,
    engineVoice: espeak('sw', 140, variant('rw-2', 'female', [200, 300], { formants: brighter })),
  },
  {
    language: 'en',
    speakerId: 0,
    name: 'Grace',
    gender: 'female',
    group: 'us-english',
    sampleRate: FLITE_RATE,
    gainDb: -2.3,
    engineVoice: flite('slt'),
  },
  {
    language: 'en',
    speakerId: 1,
    name: 'James',
    gender: 'male',
    group: 'us-english',
    sampleRate: FLITE_RATE,
    gainDb: 3.3,
    engineVoice: flite('rms'),
  },
  {
    language: 'en',
    speakerId: 2,
    name: 'Olivia',
    gender: 'female',
    group: 'us-english',
    sampleRate: FLITE_RATE,
    gainDb: -3.7,
    // The same recorded speaker as Grace, higher and quicker: a median pitch of about 200 Hz
    // against 172 Hz.
    engineVoice: flite('slt', { pitchHz: 198, stretch: 0.9 }),
  },
  {
    language: 'en',
    speakerId: 3,
    name: 'Amani',
    gender: 'female',
    group: 'african-english',
    sampleRate: FLITE_RATE,
    gainDb: -2.2,
    // The speaker of Grace and Olivia at her own pitch (Olivia's is higher), quicker than Grace,
    // with the accent's th-stopping, full vowels, FOOT [u], LOT [ɔ] and "-day" [dei]: for her
    // speaker, the features that cost the fewest words (bench/README.md, the accent's ablation).
    // A pitch target of her own, 210 or 150 Hz, cost more words than a quicker pace.
    engineVoice: flite('slt', {
      stretch: 0.9,
      accent: 'african-english',
      accentRules: ['thStopping', 'dhStopping', 'fullVowels', 'footGoose', 'lotThought', 'spelledDay'],
    }),
  },
  {
    language: 'en',
    speakerId: 4,
    name: 'Baraka',
    gender: 'male',
    group: 'african-english',
    sampleRate: FLITE_RATE,
    gainDb: 3.2,
    // The speaker of James, quicker (Flite's rms voice keeps its own pitch whatever the target),
    // with the accent's stopped [ð] ("the" [də]), full vowels, unstressed KIT [i], LOT [ɔ] and
    // "-day" [dei]: for his speaker, the features that cost the fewest words (the stopped [θ],
    // mostly in numbers, and FOOT [u] cost him more than her: bench/README.md).
    engineVoice: flite('rms', {
      stretch: 0.88,
      accent: 'african-english',
      accentRules: ['dhStopping', 'fullVowels', 'kitFleece', 'lotThought', 'spelledDay'],
    }),
  },
  {
    language: 'fr',
    speakerId: 0,
    name: 'Claire',
    gender: 'female',
    group: 'french',
    sampleRate: 22050,
    gainDb: 0.1,
    engineVoice: espeak('fr', 160, variant('fr-0', 'female', [160, 240])),
  },
  {
    language: 'fr',
    speakerId: 1,
    name: 'Julien',
    gender: 'male',
    group: 'french',
    sampleRate: 22050,
    gainDb: 2.7,
    engineVoice: espeak('fr', 160, variant('fr-1', 'male', [85, 130], { formants: deeper })),
  },
  {
    language: 'fr',
    speakerId: 2,
    name: 'Aline',
    gender: 'female',
    group: 'french',
    sampleRate: 22050,
    gainDb: -0.9,
    engineVoice: espeak('fr', 150, variant('fr-2', 'female', [195, 290], { formants: brighter })),
  },
];

let catalogue: readonly Voice[] = builtInVoices;

/**
 * The voices this process speaks: the built-in ones, each replaced by the voice pack an operator
 * assigned to its (language, speaker_id), if any. The composition root sets it once at start,
 * before anything reads it; a voice keeps its slot's name, group and gender, so what clients name
 * (and the documents built from the slots) stays the same.
 */
export function useAssignedVoices(assigned: readonly Voice[]): void {
  catalogue = builtInVoices.map(
    (slot) => assigned.find((v) => v.language === slot.language && v.speakerId === slot.speakerId) ?? slot,
  );
}

/** Every voice of the catalogue (`useAssignedVoices`). */
export function allVoices(): readonly Voice[] {
  return catalogue;
}

/** The voice for (language, speaker_id), or undefined when there is none. */
export function findVoice(language: string, speakerId: number): Voice | undefined {
  return catalogue.find((v) => v.language === language && v.speakerId === speakerId);
}

/** The voices of one language, by speaker_id. */
export function voicesOf(language: LanguageCode): readonly Voice[] {
  return catalogue.filter((v) => v.language === language);
}
