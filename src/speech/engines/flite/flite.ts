import type { ChunkSink, EngineDescriptor, EngineInput, EngineVoice, SpeechEngine } from '../engine.ts';
import { type AfricanEnglishRule, africanWord } from './african-english.ts';
import { isPhone, phonesToIpa } from './cmu-phones.ts';
import { fliteClause } from './foreign-words.ts';
import { ipaToFlitePhones } from './ipa-phones.ts';
import { clauseWords, type LexiconWord, lexiconAddenda, lexiconWords, lookupText } from './lexicon.ts';
import {
  compileFlite,
  compileFliteInThread,
  type FLITE_VOICES,
  FliteRunner,
  fliteModuleVersion,
  isCompiledFlite,
  RUN_DIR,
} from './wasi-runner.ts';

/** The voices of Flite's module Ijwi speaks with: US female and male, US male diphones. */
export type FliteVoiceName = (typeof FLITE_VOICES)[number];

export interface FliteVoice extends EngineVoice {
  readonly engine: 'flite';
  readonly voice: FliteVoiceName;
  /** Mean pitch in Hz (Flite's `int_f0_target_mean`); absent: the recorded speaker's own. */
  readonly pitchHz?: number;
  /** Duration stretch (Flite's `duration_stretch`): 1 is the speaker's pace, above 1 slower. */
  readonly stretch: number;
  /** Spoken with this accent's phone rules instead of the lexicon's US English (african-english.ts). */
  readonly accent?: 'african-english';
  /**
   * The accent's rules this voice speaks with; absent: all of them. The catalogue sets it for
   * each accented voice (voices.ts), and the intelligibility bench to build a voice with one rule
   * switched (its ablation); no client can.
   */
  readonly accentRules?: readonly AfricanEnglishRule[];
}

/**
 * What Flite is given to speak: a clause as text (`-t`), with pronunciations that replace the
 * lexicon's for its words (an addenda file, `-add_lex`), or phones (`-p`).
 */
export type FliteSpeech =
  | { readonly text: string; readonly pronunciations?: readonly LexiconWord[] }
  | { readonly phones: string };

/** `kal` is the 8 kHz diphone voice; every other voice speaks at 16 kHz. */
const SAMPLE_RATES: Readonly<Record<FliteVoiceName, number>> = {
  slt: 16_000,
  rms: 16_000,
  kal: 8_000,
};
/**
 * The voice whose run prints a clause's phones: every voice has the same lexicon, and this one,
 * 8 kHz diphones, makes its by-product audio fastest.
 */
const LOOKUP_VOICE: FliteVoiceName = 'kal';
/**
 * The lookup's audio is thrown away, and Flite's cost grows with the audio it makes: spoken a
 * hundred times faster, its phones are the same (durations change nothing before them) and the
 * run takes a sixth of the time (1.3 ms against 7.9 for a nine-word clause).
 */
const LOOKUP_STRETCH = 0.01;
/**
 * The longest clause Flite is given. The pipeline's clauses are a few hundred characters at
 * most; Flite analyses a clause whole before its first audio, when it can first be cancelled,
 * so a longer one, from whatever caller, is refused rather than left to hold a worker.
 */
export const MAX_CLAUSE_CHARACTERS = 2_000;
/**
 * Flite opens every clause with about 0.2 s of silence (its utterance's first pause), which a
 * listener would wait through before each clause, the first one included. The clause starts
 * this long before its first sound instead; the silence at its end stays as the pause between
 * clauses.
 */
const LEAD_IN_SECONDS = 0.04;
/**
 * How much of the clause's opening silence Flite makes (its `lead_in_seconds`, wasm/patches/10):
 * only the end of its first pause is vocoded, and the samples before are zeros, which the lead-in
 * above leaves out. Twice the lead-in, so that a first sound that starts before the pause's end
 * (the parameters are smoothed across it) still has its lead-in vocoded.
 */
const VOCODED_LEAD_SECONDS = 2 * LEAD_IN_SECONDS;
/**
 * A phrase cut from a sentence that goes on (`goesOn`: the pipeline's first phrase) still ends
 * with Flite's 0.2 s of utterance-end silence, a pause the sentence has not got. It keeps this
 * much of it, so with the next clause's lead-in the join is a short phrase break (0.1 s, against
 * Flite's 0.18 s at a comma inside a clause and 0.23 s at a clause's end).
 */
const PHRASE_TAIL_SECONDS = 0.06;
/** A sample this loud (of 32767) or louder is sound, not the silence of a pause. */
const SOUND_LEVEL = 300;

// Plain loops, not findIndex with a callback: a typed array's findIndex calls it for each of a
// clause's samples, a few per cent of Flite's whole run.
/** The index of the first sample at or above `SOUND_LEVEL` from `from` on, or -1. */
function firstSound(samples: Int16Array, from: number): number {
  for (let i = from; i < samples.length; i++) {
    const sample = samples[i] as number;
    if (sample >= SOUND_LEVEL || sample <= -SOUND_LEVEL) return i;
  }
  return -1;
}

/** The index of the last sample at or above `SOUND_LEVEL` from `from` on, or -1. */
function lastSound(samples: Int16Array, from: number): number {
  for (let i = samples.length - 1; i >= from; i--) {
    const sample = samples[i] as number;
    if (sample >= SOUND_LEVEL || sample <= -SOUND_LEVEL) return i;
  }
  return -1;
}

/**
 * Samples handed to the sink at a time: a tenth of a second, as espeak-ng gives them; but the
 * clause's first chunk, which a listener may be waiting for, goes as soon as it sounds: the
 * lead-in and the first stretch Flite streams with a sound in it (20 ms at most).
 */
const CHUNK_SECONDS = 0.1;
/** The clause chunker's first buffer: a chunk and more at 16 kHz; it grows when it must. */
const HELD_SAMPLES = 4096;

/**
 * Takes a clause's samples as Flite streams them and gives the sink chunks from
 * `LEAD_IN_SECONDS` before the first sound on: the first once it sounds, then tenths of a
 * second; `take` answers whether Flite should go on.
 * With a `tailSeconds`, the silence after the last sound is cut to that long: the quiet samples
 * since the last sound are held back until a sound follows them or the clause ends.
 */
class ClauseChunks {
  readonly #sink: ChunkSink;
  readonly #tailSeconds: number | undefined;
  /**
   * Samples not yet given to the sink, `#held[#start..#end)`: the lead-in while silent, then the
   * chunk being filled. One buffer, grown when it must, that Flite's samples are copied into
   * once: not a copy of each stretch kept in a list, which allocated 50 arrays an audio second.
   */
  #held = new Int16Array(HELD_SAMPLES);
  #start = 0;
  #end = 0;
  #sounded = false;
  /** How many of the samples held, at their end, came after the last sound. */
  #quiet = 0;
  #sampleRate = 0;

  constructor(sink: ChunkSink, tailSeconds?: number) {
    this.#sink = sink;
    this.#tailSeconds = tailSeconds;
  }

  take(samples: Int16Array, sampleRate: number): boolean {
    if (this.#sink.cancelled()) return false;
    let from = 0;
    const wasSounded = this.#sounded;
    if (!this.#sounded) {
      const first = firstSound(samples, 0);
      const leadIn = Math.round(LEAD_IN_SECONDS * sampleRate);
      if (first === -1) {
        this.#hold(samples, Math.max(0, samples.length - leadIn));
        this.#keepLast(leadIn);
        return true;
      }
      this.#sounded = true;
      from = Math.max(0, first - leadIn);
      this.#keepLast(leadIn - (first - from));
    }
    this.#hold(samples, from);
    this.#sampleRate = sampleRate;
    const last = lastSound(samples, from);
    this.#quiet = last === -1 ? this.#quiet + samples.length - from : samples.length - 1 - last;
    const heldBack = this.#tailSeconds === undefined ? 0 : this.#quiet;
    if (!wasSounded && this.#length > heldBack) {
      this.#sink.push(this.#drain(this.#length - heldBack));
      if (this.#sink.cancelled()) return false;
    }
    const chunk = Math.round(sampleRate * CHUNK_SECONDS);
    while (this.#length - heldBack >= chunk) {
      this.#sink.push(this.#drain(chunk));
      if (this.#sink.cancelled()) return false;
    }
    return true;
  }

  /** Whatever is left once Flite is done: the end of the last chunk. */
  finish(): void {
    const tail =
      this.#tailSeconds === undefined
        ? this.#quiet
        : Math.min(this.#quiet, Math.round(this.#tailSeconds * this.#sampleRate));
    const length = this.#length - this.#quiet + tail;
    if (this.#sounded && length > 0 && !this.#sink.cancelled()) this.#sink.push(this.#drain(length));
  }

  get #length(): number {
    return this.#end - this.#start;
  }

  /** Holds `samples` from `from` on, after what is held. */
  #hold(samples: Int16Array, from: number): void {
    const length = samples.length - from;
    if (this.#end + length > this.#held.length) {
      const held = this.#held.subarray(this.#start, this.#end);
      const room = this.#held.length >= 2 * (held.length + length) ? this.#held : null;
      const into = room ?? new Int16Array(2 * (held.length + length));
      into.set(held, 0);
      this.#held = into;
      this.#end -= this.#start;
      this.#start = 0;
    }
    this.#held.set(from === 0 ? samples : samples.subarray(from), this.#end);
    this.#end += length;
  }

  /** Keeps only the last `keep` samples held (the lead-in before a sound still to come). */
  #keepLast(keep: number): void {
    this.#start = Math.max(this.#start, this.#end - Math.max(0, keep));
  }

  /** The first `length` samples held, removed from the hold. */
  #drain(length: number): Int16Array {
    const out = this.#held.slice(this.#start, this.#start + length);
    this.#start += length;
    if (this.#start === this.#end) this.#start = this.#end = 0;
    return out;
  }
}

function asFliteVoice(voice: EngineVoice): FliteVoice {
  if (voice.engine !== 'flite') throw new Error(`flite cannot speak a ${voice.engine} voice`);
  return voice as FliteVoice;
}

/** The addenda file of a run, in its directory. */
const ADDENDA_FILE = 'accent.lex';

/**
 * The command line of one synthesis, and the files it reads. Every setting is given on every
 * call, and the text is the one argument after `-t`: Flite reads it as text (no `-ssml`),
 * whatever it holds, even when it looks like an option. Phones, in `-p` or in the addenda, are
 * only ever names of Flite's phone set (lexicon.ts).
 */
export function fliteArguments(
  speech: FliteSpeech,
  voice: FliteVoice,
  rate: number,
): { args: string[]; inputs: Record<string, string> } {
  const args = [
    '-voice',
    voice.voice,
    '--setf',
    `duration_stretch=${(voice.stretch / rate).toFixed(3)}`,
    '--setf',
    `lead_in_seconds=${VOCODED_LEAD_SECONDS}`,
  ];
  if (voice.pitchHz !== undefined) args.push('--setf', `int_f0_target_mean=${voice.pitchHz}`);
  if ('phones' in speech) return { args: [...args, '-p', speech.phones], inputs: {} };
  if (speech.pronunciations === undefined) return { args: [...args, '-t', speech.text], inputs: {} };
  return {
    args: [...args, '-add_lex', `${RUN_DIR}/${ADDENDA_FILE}`, '-t', speech.text],
    inputs: { [ADDENDA_FILE]: lexiconAddenda(speech.pronunciations) },
  };
}

class FliteEngine implements SpeechEngine {
  readonly id = 'flite' as const;
  readonly #runner: FliteRunner;

  constructor(runner: FliteRunner) {
    this.#runner = runner;
  }

  sampleRate(voice: EngineVoice): number {
    return SAMPLE_RATES[asFliteVoice(voice).voice];
  }

  /**
   * Speaks one clause: Flite streams it while its vocoder runs (the first sound about a third
   * of the way into the run), to the sink in chunks of a tenth of a second; a cancel stops
   * Flite itself at the next one.
   */
  synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): void {
    const fliteVoice = asFliteVoice(voice);
    const text = input.kind === 'phonemes' ? input.phonemes : fliteClause(input).text;
    if (sink.cancelled() || text.trim() === '') return;
    if (text.length > MAX_CLAUSE_CHARACTERS) {
      throw new Error(
        `flite takes clauses of at most ${MAX_CLAUSE_CHARACTERS} characters, not ${text.length}`,
      );
    }
    const { args, inputs } = fliteArguments(this.#speech(input, fliteVoice), fliteVoice, rate);
    const chunks = new ClauseChunks(sink, input.goesOn ? PHRASE_TAIL_SECONDS : undefined);
    this.#runner.stream(args, (samples, sampleRate) => chunks.take(samples, sampleRate), inputs);
    chunks.finish();
  }

  /** Phones checked against the phone set; text with the voice's accent, if it has one. */
  #speech(input: EngineInput, voice: FliteVoice): FliteSpeech {
    if (input.kind === 'phonemes') {
      const phones = input.phonemes.trim().split(/\s+/);
      const unknown = phones.find((phone) => !isPhone(phone));
      if (unknown !== undefined)
        throw new Error(`flite has no phone ${JSON.stringify(unknown.slice(0, 20))}`);
      return { phones: phones.join(' ') };
    }
    const { text, foreign, standsFor } = fliteClause(input);
    const pronunciations = [
      ...foreign,
      ...(voice.accent === undefined ? [] : this.#accentedOnly(text, voice, new Set(standsFor.keys()))),
    ];
    return pronunciations.length === 0 ? { text } : { text, pronunciations };
  }

  /**
   * The words of a clause that the accent says otherwise than the lexicon, but for the stand-ins
   * of foreign words (`skip`), which are not the lexicon's to say. Only these go to Flite as
   * addenda: a word the accent leaves alone keeps Flite's own choice in context (the reduced "a"
   * [ə] rather than the letter's name, which a word looked up alone gets).
   */
  #accentedOnly(text: string, voice: FliteVoice, skip: ReadonlySet<string>): LexiconWord[] {
    const lexicon = this.#lexiconWords(text, skip);
    if (lexicon === undefined) return [];
    return lexicon.flatMap((word) => {
      const phones = africanWord(word, voice.accentRules);
      const same =
        phones.length === word.phones.length && phones.every((phone, i) => phone === word.phones[i]);
      return same ? [] : [{ ...word, phones }];
    });
  }

  /** The phones the voice speaks for a clause, in IPA, a space between words (`--show phonemes`). */
  phonemes(input: EngineInput, voice: EngineVoice): string {
    if (input.kind === 'phonemes') return '';
    const clause = fliteClause(input);
    const foreign = new Map(clause.foreign.map((word) => [word.spelling, word]));
    const spoken = this.#spokenWords(clause.text, asFliteVoice(voice), new Set(foreign.keys()));
    if (spoken === undefined && foreign.size === 0) return '';
    const native = (spoken ?? []).values();
    return clauseWords(clause.text)
      .map((spelling) => {
        const word = foreign.get(spelling) ?? native.next().value;
        return word === undefined ? '' : phonesToIpa(word.phones.join(' '));
      })
      .filter((ipa) => ipa !== '')
      .join(' ');
  }

  /**
   * The clause's words but `skip` as the voice says them: the lexicon's US phones, through the
   * voice's accent rules. Undefined when there are no words, or the lexicon's output does not match
   * them (the clause is then spoken with the lexicon's own).
   */
  #spokenWords(text: string, voice: FliteVoice, skip: ReadonlySet<string>): LexiconWord[] | undefined {
    const lexicon = this.#lexiconWords(text, skip);
    if (lexicon === undefined || voice.accent !== 'african-english') return lexicon;
    return lexicon.map((word) => ({ ...word, phones: africanWord(word, voice.accentRules) }));
  }

  /**
   * The clause's words but `skip` (lower case) with the phones Flite's lexicon gives each looked up
   * alone; undefined when there are none, or the lexicon's output does not match them.
   */
  #lexiconWords(text: string, skip: ReadonlySet<string>): LexiconWord[] | undefined {
    const words = clauseWords(text).filter((word) => !skip.has(word.toLowerCase()));
    if (words.length === 0) return undefined;
    const lookup = [
      '-voice',
      LOOKUP_VOICE,
      '--setf',
      `duration_stretch=${LOOKUP_STRETCH}`,
      '-pr',
      'SegmentStress',
      '-t',
      lookupText(words),
    ];
    return lexiconWords(words, this.#runner.run(lookup).printed);
  }
}

/** Flite (Carnegie Mellon University) compiled to WASI, with its English voices built in. */
export const fliteEngine: EngineDescriptor = {
  id: 'flite',
  name: 'Flite',
  method: 'voices built from recordings of real speakers',
  licence: 'BSD-style (Flite licence: CMU, no advertising clause)',
  licenceUrl: 'https://github.com/festvox/flite/blob/master/COPYING',
  version: fliteModuleVersion(),
  analysesClauseWhole: true,
  // Its voices are English: the IPA is read with the English symbols.
  readIpa: (_language, ipa) => ipaToFlitePhones(ipa),
  prepare: compileFliteInThread,
  async load(prepared) {
    return new FliteEngine(new FliteRunner(isCompiledFlite(prepared) ? prepared : await compileFlite()));
  },
};
