import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ESpeakEvent, ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
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

const VARIANT_DIR = '/usr/share/espeak-ng-data/voices/!v';
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

/**
 * espeak-ng's data package is 24 MB, 23 MB of it the dictionaries of languages Ijwi does not
 * speak, and emscripten's loader reads it whole into every instance (every pool worker). The
 * instance is given instead a package of zeroes of the same size (a new ArrayBuffer, whose pages
 * the system backs only once written), and each file's bytes are read from disk into it when
 * espeak-ng first opens the file: a worker holds the files it uses, about 1 MB. A file is a view
 * of the package until something writes it (emscripten's MEMFS owns the package's bytes), which
 * is how its place in the package is known; a file that is not a view is left as it is.
 */
function readFilesWhenOpened(fs: ESpeakNGModule['FS'], blank: ArrayBuffer, path: string): void {
  const read = new WeakSet<Uint8Array>();
  const open = fs.open.bind(fs);
  fs.open = (file, ...rest) => {
    const stream = open(file, ...rest);
    const contents = stream.node.contents;
    if (contents && contents.buffer === blank && !read.has(contents)) {
      read.add(contents);
      const fd = openSync(path, 'r');
      try {
        readSync(fd, contents, 0, contents.byteLength, contents.byteOffset);
      } finally {
        closeSync(fd);
      }
    }
    return stream;
  };
}

class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak-ng' as const;
  readonly #worker: ESpeakNGWorker;
  readonly #fs: ESpeakNGModule['FS'];
  readonly #written = new Set<string>();
  /** Foreign words' IPA from espeak-ng's dictionaries, by language and word. */
  readonly #lookups = new Map<string, string>();

  constructor(worker: ESpeakNGWorker, fs: ESpeakNGModule['FS']) {
    this.#worker = worker;
    this.#fs = fs;
  }

  sampleRate(): number {
    return SAMPLE_RATE;
  }

  /**
   * Text goes through the call that reads neither SSML nor phoneme brackets (espeak-ng's flags
   * 0; it also writes a phoneme trace, which costs nothing measurable): markup in it is spoken
   * as the characters it is made of. Only checked phoneme input takes the SSML-reading call.
   */
  synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): void {
    if (input.kind === 'phonemes' && !PHONEME_INPUT.test(input.phonemes))
      throw new Error('phoneme input outside the espeak-ng notation Ijwi writes');
    const espeakVoice = asEspeakVoice(voice);
    // Dictionary look-ups select other voices: they come before the voice is set for the call.
    const mixed = input.kind === 'mixed' ? this.#mixedPhonemeInput(input.parts, espeakVoice) : undefined;
    this.#select(espeakVoice, rate);
    const onChunk = (samples: Int16Array, events: readonly ESpeakEvent[]) => {
      if (sink.cancelled()) return true;
      for (const event of events) {
        // espeak-ng counts text positions from 1, in characters.
        if (event.type === 'word')
          sink.word?.({
            start: event.text_position - 1,
            length: event.word_length,
            ms: event.audio_position,
          });
      }
      if (samples.length > 0) sink.push(samples);
      return sink.cancelled();
    };
    if (input.kind === 'text') this.#worker.synthesize_and_get_phonemes(input.text, onChunk);
    else this.#worker.synthesize(mixed ?? (input.kind === 'phonemes' ? input.phonemes : ''), onChunk);
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

  #ipaOf(text: string, voice: EspeakVoice): string {
    this.#select(voice, 1);
    return this.#worker.synthesize_ipa(text).ipa.replace(/_/g, '').replace(/\s+/g, ' ').trim();
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
    if (this.#worker.set_voice(dictionary) !== 0) throw new Error(`espeak-ng has no ${dictionary} voice`);
    // The word alone, as text (flags 0 for IPA too): nothing in it is read as markup.
    const ipa = this.#worker.synthesize_ipa(part.text).ipa.replace(/_/g, '').trim();
    this.#lookups.set(key, ipa);
    if (this.#lookups.size > LOOKUPS_KEPT) this.#lookups.delete(this.#lookups.keys().next().value as string);
    return ipa;
  }

  /**
   * Sets every setting the engine keeps, for every call: the voice (about 0.3 ms, so it is never
   * skipped on the strength of what an earlier call left behind), rate, pitch, range and volume.
   */
  #select(voice: EspeakVoice, rate: number): void {
    const name = `${voice.language}+ijwi-${voice.variant.id}`;
    if (!this.#written.has(voice.variant.id)) {
      this.#fs.writeFile(`${VARIANT_DIR}/ijwi-${voice.variant.id}`, renderVariantFile(voice.variant));
      this.#written.add(voice.variant.id);
    }
    const status = this.#worker.set_voice(name);
    if (status !== 0) throw new Error(`espeak-ng rejected voice ${voice.language}+${voice.variant.id}`);
    this.#worker.set_rate(Math.min(MAX_WPM, Math.max(MIN_WPM, Math.round(voice.rate * rate))));
    this.#worker.set_pitch(NEUTRAL.pitch);
    this.#worker.set_range(NEUTRAL.range);
    this.#worker.set_volume(NEUTRAL.volume);
  }
}

/** espeak-ng compiled to JavaScript (wasm2js): installs with npm alone. GPL-3.0. */
export const espeakNgEngine: EngineDescriptor = {
  id: 'espeak-ng',
  name: 'eSpeak NG',
  method: 'formant synthesis: clear and quick, and plainly synthetic',
  licence: 'GPL-3.0-or-later',
  licenceUrl: 'https://github.com/espeak-ng/espeak-ng/blob/master/COPYING',
  version: packageVersion('@echogarden/espeak-ng-emscripten'),
  readIpa(language, ipa) {
    const converted = ipaToEspeak(language, ipa);
    if (!converted.ok) return converted;
    const mnemonics = converted.mnemonics.trim();
    return { ok: true, phones: mnemonics === '' ? '' : `[[${mnemonics}]]` };
  },
  async load() {
    const loadModule = (await import('@echogarden/espeak-ng-emscripten')).default;
    const data = createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten/espeak-ng.data');
    const blank = { buffer: new ArrayBuffer(0) };
    const module = await loadModule({
      getPreloadedPackage: (_name, size) => {
        blank.buffer = new ArrayBuffer(size);
        return blank.buffer;
      },
    });
    readFilesWhenOpened(module.FS, blank.buffer, data);
    return new EspeakEngine(new module.eSpeakNGWorker(), module.FS);
  },
};
