import { ipaToEspeak } from '../text/ipa.ts';
import type { LanguageCode } from '../text/verbalizer.ts';
import type {
  ChunkSink,
  ClausePart,
  EngineDescriptor,
  EngineInput,
  EngineVoice,
  SpeechEngine,
} from './engine.ts';
import { adaptedIpa, foreignPhonemes } from './espeak-ng/foreign-words.ts';
import {
  type CompiledEspeak,
  compileEspeak,
  DATA_PACKAGE,
  ESPEAK_NG_VERSION,
  EspeakInstance,
  isCompiledEspeak,
  recordedChecksum,
  SYNTH_SSML_AND_PHONEMES,
  SYNTH_TEXT,
  type SynthEvent,
  type SynthSettings,
} from './espeak-ng/wasm-runtime.ts';
import { packageVersion } from './package-version.ts';

/**
 * A voice quality written as an espeak-ng variant file (the `voices/!v/` format): pitch,
 * formants, breath and so on. Ijwi's voices are variants of its own, written into the
 * engine's virtual file system at load, so that each is distinct and none depends on the
 * variants that happen to ship with the data.
 */
export interface EspeakVariant {
  /** File name; must be unique across the catalogue. */
  readonly id: string;
  readonly gender: 'male' | 'female';
  /** Base and top pitch in Hz. */
  readonly pitch: readonly [number, number];
  /** `formant N freq% height% width%`: vocal-tract colour; 100 is the base voice. */
  readonly formants?: readonly (readonly [number, number, number, number])[];
  /** Breathiness per formant, 0 (none) upwards. */
  readonly breath?: readonly number[];
  /** Echo delay in ms and amplitude in %. */
  readonly echo?: readonly [number, number];
  /** Amplitude of voiced sounds (default 100). */
  readonly voicing?: number;
  /** Amplitude of consonants: plosives and fricatives (defaults 100 100). */
  readonly consonants?: readonly [number, number];
  /** Use the Klatt formant synthesiser (1-6) instead of the default wave generator. */
  readonly klatt?: number;
}

export interface EspeakVoice extends EngineVoice {
  readonly engine: 'espeak-ng';
  /** The language voice of espeak-ng that reads the text: `sw`, `en-us`, `en-029`, `fr`... */
  readonly language: string;
  readonly variant: EspeakVariant;
  /** Speaking rate in words per minute (espeak-ng's default is 175). */
  readonly rate: number;
}

/** Where the variant files go, in the engine's data directory. */
const VARIANT_DIR = 'voices/!v';
const SAMPLE_RATE = 22050;

/**
 * Renders a variant file. `flutter 0` and `roughness 0` are deliberate: both draw on state
 * that espeak-ng keeps across calls, so with them the same text gave slightly different audio
 * depending on what the instance spoke before. Without them synthesis is deterministic: the
 * same request always gives the same bytes, whichever worker runs it.
 */
export function renderVariantFile(v: EspeakVariant): string {
  const lines = [
    'language variant',
    `name ijwi-${v.id}`,
    `gender ${v.gender}`,
    `pitch ${v.pitch[0]} ${v.pitch[1]}`,
    'flutter 0',
    'roughness 0',
  ];
  for (const [n, freq, height, width] of v.formants ?? [])
    lines.push(`formant ${n} ${freq} ${height} ${width}`);
  if (v.breath) lines.push(`breath ${v.breath.join(' ')}`);
  if (v.echo) lines.push(`echo ${v.echo[0]} ${v.echo[1]}`);
  if (v.voicing !== undefined) lines.push(`voicing ${v.voicing}`);
  if (v.consonants) lines.push(`consonants ${v.consonants[0]} ${v.consonants[1]}`);
  if (v.klatt !== undefined) lines.push(`klatt ${v.klatt}`);
  return `${lines.join('\n')}\n`;
}

/** The language of the phoneme table a voice speaks with. */
function languageOf(voice: EspeakVoice): LanguageCode {
  const language = LANGUAGE_OF_VOICE[voice.language];
  if (language === undefined) throw new Error(`no language is known for espeak-ng's ${voice.language} voice`);
  return language;
}

function asEspeakVoice(voice: EngineVoice): EspeakVoice {
  if (voice.engine !== 'espeak-ng') throw new Error(`espeak-ng cannot speak a ${voice.engine} voice`);
  return voice as EspeakVoice;
}

/**
 * Phoneme input as Ijwi's front-ends write it: `[[...]]` groups of espeak-ng mnemonics (letters,
 * digits, `@ ~ ^ * #` and the stress and length marks `' , :`) with clause punctuation between
 * them. Anything else is refused before the engine sees it: phoneme input can only be read by
 * the call that also reads SSML, so a `<`, a `&` or a `_^_` language switch must never get there.
 */
const PHONEME_INPUT = /^(?:\[\[[A-Za-z0-9@~^*#':, ]+\]\]|[ .,;:?!])+$/;

/**
 * The language whose phoneme table each of espeak-ng's voices speaks with, as Ijwi names it, and
 * the voice that looks up a word of each language in its dictionary (British English: Rwandan
 * English is non-rhotic, as its model is).
 */
const LANGUAGE_OF_VOICE: Readonly<Record<string, LanguageCode>> = {
  sw: 'rw',
  fr: 'fr',
  'en-us': 'en',
  'en-029': 'en',
};
const DICTIONARY_VOICE: Readonly<Record<LanguageCode, string | undefined>> = {
  rw: undefined,
  en: 'en',
  fr: 'fr',
};
/** Foreign words whose IPA one engine keeps, the least recently used dropped first. */
const LOOKUPS_KEPT = 2_000;
// Text between a mixed clause's words goes to the call that reads phoneme brackets and SSML:
// what could open either is a space there.
const MARKUP_CHARACTERS = /[<>&[\]]/gu;

/** espeak-ng's defaults for the settings Ijwi does not vary, restored for every call. */
const NEUTRAL = { pitch: 50, range: 50, volume: 100 } as const;
/** The speaking rates espeak-ng accepts, in words per minute. */
const MIN_WPM = 80;
const MAX_WPM = 450;

class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak-ng' as const;
  readonly #compiled: CompiledEspeak;
  /** The engine's instance: made on first use, and anew once one is lost (`#use`). */
  #instance: EspeakInstance | undefined;
  /** The variant files the instance has been given. */
  readonly #written = new Set<string>();
  /** Foreign words' IPA from espeak-ng's dictionaries, by language and word. */
  readonly #lookups = new Map<string, string>();

  constructor(compiled: CompiledEspeak) {
    this.#compiled = compiled;
  }

  sampleRate(): number {
    return SAMPLE_RATE;
  }

  /**
   * Text goes through the call that reads neither SSML nor phoneme brackets (espeak-ng's flags
   * 0): markup in it is spoken as the characters it is made of. Only checked phoneme input takes
   * the SSML-reading call.
   */
  synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): void {
    if (input.kind === 'phonemes' && !PHONEME_INPUT.test(input.phonemes))
      throw new Error('phoneme input outside the espeak-ng notation Ijwi writes');
    const espeakVoice = asEspeakVoice(voice);
    this.#use((instance) => {
      // Dictionary look-ups select other voices: they come before the voice is set for the call.
      const mixed = input.kind === 'mixed' ? this.#mixedPhonemeInput(input.parts, espeakVoice) : undefined;
      const settings = this.#select(instance, espeakVoice, rate);
      const onChunk = (samples: Int16Array, events: readonly SynthEvent[]) => {
        if (sink.cancelled()) return true;
        // espeak-ng counts text positions from 1, in characters.
        for (const event of events)
          if (event.type === 'word')
            sink.word?.({ start: event.textPosition - 1, length: event.length, ms: event.audioMs });
        if (samples.length > 0) sink.push(samples);
        return sink.cancelled();
      };
      if (input.kind === 'text') instance.synthesize(input.text, SYNTH_TEXT, settings, onChunk);
      else
        instance.synthesize(
          mixed ?? (input.kind === 'phonemes' ? input.phonemes : ''),
          SYNTH_SSML_AND_PHONEMES,
          settings,
          onChunk,
        );
    });
  }

  phonemes(input: EngineInput, voice: EngineVoice): string {
    const espeakVoice = asEspeakVoice(voice);
    if (input.kind === 'phonemes') return '';
    const pieces =
      input.kind === 'text'
        ? [this.#ipaOf(input.text, espeakVoice)]
        : input.parts.map((part) => {
            if (part.kind === 'phonemes') return part.ipa;
            if (part.kind === 'text') return this.#ipaOf(part.text, espeakVoice);
            return adaptedIpa(this.#wordIpa(part), part.language, languageOf(espeakVoice));
          });
    return pieces.join(' ').replace(/\s+/g, ' ').trim();
  }

  /**
   * Runs `work` on the engine's instance. An error thrown while the instance runs (a trap, or a
   * listener's error unwinding through espeak-ng's frames) leaves its memory in a state nothing
   * vouches for: the instance is dropped, and the next call gets a new one.
   */
  #use<T>(work: (instance: EspeakInstance) => T): T {
    if (this.#instance === undefined) {
      this.#instance = new EspeakInstance(this.#compiled);
      this.#written.clear();
    }
    const instance = this.#instance;
    try {
      return work(instance);
    } catch (error) {
      if (this.#instance === instance) this.#instance = undefined;
      throw error;
    }
  }

  #ipaOf(text: string, voice: EspeakVoice): string {
    return this.#use((instance) => {
      this.#select(instance, voice, 1);
      return instance.ipa(text).replace(/_/g, '').replace(/\s+/g, ' ').trim();
    });
  }

  /**
   * A mixed clause as phoneme input: the front-end's phonemes as they are (checked), text with
   * anything that could open markup made a space, and each foreign word as the voice's phonemes.
   */
  #mixedPhonemeInput(parts: readonly ClausePart[], voice: EspeakVoice): string {
    const language = languageOf(voice);
    return parts
      .map((part) => {
        if (part.kind === 'text') return part.text.replace(MARKUP_CHARACTERS, ' ');
        if (part.kind === 'phonemes') {
          if (!PHONEME_INPUT.test(part.phonemes))
            throw new Error('phoneme input outside the espeak-ng notation Ijwi writes');
          return part.phonemes;
        }
        return foreignPhonemes(this.#wordIpa(part), part.language, language);
      })
      .join(' ');
  }

  /** A foreign word's IPA: the front-end's, or espeak-ng's dictionary of the word's language. */
  #wordIpa(part: Extract<ClausePart, { kind: 'word' }>): string {
    if (part.ipa !== undefined) return part.ipa;
    const dictionary = DICTIONARY_VOICE[part.language];
    if (dictionary === undefined) return '';
    const key = `${part.language} ${part.text}`;
    const kept = this.#lookups.get(key);
    if (kept !== undefined) {
      this.#lookups.delete(key);
      this.#lookups.set(key, kept);
      return kept;
    }
    const ipa = this.#use((instance) => {
      if (instance.setVoice(dictionary) !== 0) throw new Error(`espeak-ng has no ${dictionary} voice`);
      // The word alone, as text (flags 0 for IPA too): nothing in it is read as markup.
      return instance.ipa(part.text).replace(/_/g, '').trim();
    });
    this.#lookups.set(key, ipa);
    if (this.#lookups.size > LOOKUPS_KEPT) this.#lookups.delete(this.#lookups.keys().next().value as string);
    return ipa;
  }

  /**
   * Selects the voice for every call (about 0.3 ms, so it is never skipped on the strength of
   * what an earlier call left behind), its variant file written first, and gives the settings
   * the synthesis sets: rate, and espeak-ng's defaults for volume, pitch and range.
   */
  #select(instance: EspeakInstance, voice: EspeakVoice, rate: number): SynthSettings {
    const name = `${voice.language}+ijwi-${voice.variant.id}`;
    if (!this.#written.has(voice.variant.id)) {
      instance.writeFile(`${VARIANT_DIR}/ijwi-${voice.variant.id}`, renderVariantFile(voice.variant));
      this.#written.add(voice.variant.id);
    }
    const status = instance.setVoice(name);
    if (status !== 0) throw new Error(`espeak-ng rejected voice ${voice.language}+${voice.variant.id}`);
    return { ...NEUTRAL, rate: Math.min(MAX_WPM, Math.max(MIN_WPM, Math.round(voice.rate * rate))) };
  }
}

/**
 * espeak-ng compiled to WebAssembly by Ijwi's own reproducible build of its released source
 * (`espeak-ng/wasm/`), with the data of `@echogarden/espeak-ng-emscripten`. GPL-3.0.
 */
export const espeakNgEngine: EngineDescriptor = {
  id: 'espeak-ng',
  name: 'eSpeak NG',
  method: 'formant synthesis: clear and quick, and plainly synthetic',
  licence: 'GPL-3.0-or-later',
  licenceUrl: 'https://github.com/espeak-ng/espeak-ng/blob/master/COPYING',
  // The code's release and build, and the data's package: what the audio changes with.
  version: `${ESPEAK_NG_VERSION}+wasm.${recordedChecksum().slice(0, 12)}.data.${packageVersion(DATA_PACKAGE)}`,
  readIpa(language, ipa) {
    const converted = ipaToEspeak(language, ipa);
    if (!converted.ok) return converted;
    const mnemonics = converted.mnemonics.trim();
    return { ok: true, phones: mnemonics === '' ? '' : `[[${mnemonics}]]` };
  },
  prepare: compileEspeak,
  async load(prepared) {
    return new EspeakEngine(isCompiledEspeak(prepared) ? prepared : await compileEspeak());
  },
};
