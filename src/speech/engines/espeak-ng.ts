import type { ESpeakNGModule, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import type { ChunkSink, EngineDescriptor, EngineVoice, SpeechEngine } from './engine.ts';

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

function asEspeakVoice(voice: EngineVoice): EspeakVoice {
  if (voice.engine !== 'espeak-ng') throw new Error(`espeak-ng cannot speak a ${voice.engine} voice`);
  return voice as EspeakVoice;
}

class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak-ng' as const;
  readonly #worker: ESpeakNGWorker;
  readonly #fs: ESpeakNGModule['FS'];
  readonly #written = new Set<string>();
  // The voice set last, by name and rate. Voices reach a worker as structured clones, a new
  // object per job, so comparing objects would call set_voice (about 1 ms) for every clause.
  #currentVoice: string | undefined;

  constructor(worker: ESpeakNGWorker, fs: ESpeakNGModule['FS']) {
    this.#worker = worker;
    this.#fs = fs;
  }

  sampleRate(): number {
    return SAMPLE_RATE;
  }

  synthesize(input: string, voice: EngineVoice, sink: ChunkSink): void {
    this.#select(asEspeakVoice(voice));
    this.#worker.synthesize(input, (samples) => {
      if (sink.cancelled()) return true;
      if (samples.length > 0) sink.push(samples);
      return sink.cancelled();
    });
  }

  phonemes(input: string, voice: EngineVoice): string {
    this.#select(asEspeakVoice(voice));
    const { ipa } = this.#worker.synthesize_ipa(input);
    return ipa.replace(/_/g, '').replace(/\s+/g, ' ').trim();
  }

  #select(voice: EspeakVoice): void {
    const name = `${voice.language}+ijwi-${voice.variant.id}`;
    const key = `${name}@${voice.rate}`;
    if (this.#currentVoice === key) return;
    if (!this.#written.has(voice.variant.id)) {
      this.#fs.writeFile(`${VARIANT_DIR}/ijwi-${voice.variant.id}`, renderVariantFile(voice.variant));
      this.#written.add(voice.variant.id);
    }
    this.#currentVoice = undefined;
    const status = this.#worker.set_voice(name);
    if (status !== 0) throw new Error(`espeak-ng rejected voice ${voice.language}+${voice.variant.id}`);
    this.#worker.set_rate(voice.rate);
    this.#currentVoice = key;
  }
}

/** espeak-ng compiled to JavaScript (wasm2js): installs with npm alone. GPL-3.0. */
export const espeakNgEngine: EngineDescriptor = {
  id: 'espeak-ng',
  name: 'eSpeak NG',
  licence: 'GPL-3.0-or-later',
  async load() {
    const loadModule = (await import('@echogarden/espeak-ng-emscripten')).default;
    const module = await loadModule();
    return new EspeakEngine(new module.eSpeakNGWorker(), module.FS);
  },
};
