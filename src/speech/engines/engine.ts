/**
 * The one engine contract. An engine lives inside a pool worker thread, where it may block;
 * the pool turns it into an async iterable with an AbortSignal for callers. A second engine
 * (neural voices) joins by implementing this interface and registering in `registry.ts`.
 */
import type { LanguageCode } from '../text/verbalizer.ts';

/** Engine-specific voice settings; each engine narrows `engine` to its own id. */
export interface EngineVoice {
  readonly engine: EngineId;
}

export type EngineId = 'espeak-ng' | 'flite' | 'neural';

/**
 * What an engine is asked to speak. Text is read as text and nothing else: an engine must make
 * markup, phoneme brackets and commands in it impossible to obey, not merely unlikely. Phonemes
 * are written by Ijwi's own front-ends in the engine's notation, and the engine checks them
 * against that notation before it reads them.
 */
export type EngineInput = (
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'phonemes'; readonly phonemes: string }
  | { readonly kind: 'mixed'; readonly parts: readonly ClausePart[] }
) & {
  /**
   * The clause is a phrase cut from a sentence that goes on after it (a listener's first phrase,
   * `FirstPhrase` in `text/clauses.ts`): an engine that ends each clause with a pause leaves it
   * out, so the sentence plays on. Absent for every other clause.
   */
  readonly goesOn?: true;
};

/**
 * A piece of a clause whose words are not all of the voice's language (`mixed` input), in order:
 * text the voice reads by its own language's rules, phonemes a front-end wrote in the engine's
 * notation (with their IPA, for people), or one word of another language, which the engine says
 * with its own sounds as near as they go to that language's (with the word's IPA when the
 * front-end knows it; otherwise the engine looks the word up in its own dictionary of that
 * language). The voice stays the same throughout: the clause is still one utterance.
 */
export type ClausePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'phonemes'; readonly phonemes: string; readonly ipa: string }
  | {
      readonly kind: 'word';
      readonly text: string;
      readonly language: LanguageCode;
      readonly ipa?: string;
    };

/** What decides a clause input's sound, as one string: for cache keys and the pool's measure of work. */
export function inputText(input: EngineInput): string {
  if (input.kind === 'text') return input.text;
  if (input.kind === 'phonemes') return input.phonemes;
  return JSON.stringify(input.parts);
}

/**
 * A word an engine began to speak: where it is in the input (code points from 0, in the text or
 * in the phoneme string) and when, in ms from the clause's first sample.
 */
export interface EngineWord {
  readonly start: number;
  readonly length: number;
  readonly ms: number;
}

/** Where an engine sends audio while it synthesises, and how it learns it should stop. */
export interface ChunkSink {
  /** Mono 16-bit PCM at the engine's sample rate for this voice. The engine must not reuse the array. */
  push(samples: Int16Array): void;
  /** Each word as the engine starts it, for engines that report words (espeak-ng does). */
  word?(word: EngineWord): void;
  /** Read between chunks: true once the request was cancelled. */
  cancelled(): boolean;
}

export interface SpeechEngine {
  readonly id: EngineId;
  /** Output sample rate for a voice (espeak-ng: always 22050). */
  sampleRate(voice: EngineVoice): number;
  /**
   * Synthesises one clause at `rate` times the voice's own speaking rate. Every setting the
   * engine keeps (voice, rate, pitch...) is set for each call, so nothing an earlier call did can
   * change this one's audio. Throws on phonemes outside the engine's notation. Returns when done
   * or cancelled; an engine whose work runs outside the worker's thread (the neural voices, in a
   * process of their own) returns a promise instead, and the worker waits for it.
   */
  synthesize(input: EngineInput, voice: EngineVoice, rate: number, sink: ChunkSink): void | Promise<void>;
  /**
   * The phonemes the engine would speak for plain text or a mixed clause, in IPA, for `--show
   * phonemes`. (Phoneme input needs no answer: the front-end that wrote it knows its IPA.)
   */
  phonemes(input: EngineInput, voice: EngineVoice): string;
}

/**
 * IPA a client wrote (SSML `phoneme`) as the phonemes an engine reads (`''`: no sound), or the
 * first symbol its voices cannot say.
 */
export type IpaReading =
  | { readonly ok: true; readonly phones: string }
  | { readonly ok: false; readonly symbol: string };

/** What the registry knows about an engine without loading it. */
export interface EngineDescriptor {
  readonly id: EngineId;
  readonly name: string;
  /** How it makes speech, in words for the people who choose a voice. */
  readonly method: string;
  readonly licence: string;
  /** Where the licence's text is, linked from the voices listing. */
  readonly licenceUrl: string;
  /** The version of the engine's own code (its package), part of what decides a clause's bytes. */
  readonly version: string;
  /**
   * True when the engine reads text only: the front-end then gives it every clause as text, never
   * phonemes (Kinyarwanda's are made for espeak-ng's phoneme names).
   */
  readonly readsTextOnly?: boolean;
  /**
   * True when a clause's first audio waits for the engine's analysis of the whole clause (Flite):
   * a listener's first clause, when long, is then spoken as its first phrase and the rest
   * (`FirstPhrase` in `text/clauses.ts`), where the voice's language says where phrases start.
   */
  readonly analysesClauseWhole?: boolean;
  /**
   * Set for an engine whose clauses cost tens of times what espeak-ng's do (a neural voice:
   * 10-100x). The pool runs its clauses on all workers but one (so one is always left to the other
   * engines' first audio), never lets one yield (spoken again, it would cost as much again), and
   * admits a bounded number of its calls at once (`EnginePool.openCall`): past that a caller is
   * told to come back rather than queued without bound. See `pool/admission.ts`.
   */
  readonly heavy?: {
    /** Calls in flight it takes per worker it may use, unless the service's configuration says otherwise. */
    readonly callsPerWorker: number;
  };
  /**
   * Reads IPA (SSML `<phoneme>`) for a voice of `language` in the engine's own notation, on the
   * main thread, before anything is queued; absent when the engine reads text only.
   */
  readIpa?(language: LanguageCode, ipa: string): IpaReading;
  /**
   * Runs once in the pool's thread, before its workers start: what it gives is sent to each
   * worker's `load` (a structured clone). For work and memory that are the same in every worker,
   * such as compiling a WebAssembly module: one compilation, whose code the workers share.
   */
  prepare?(): Promise<unknown>;
  /** Runs inside a worker thread only, with what `prepare` gave when the engine has it. */
  load(prepared?: unknown): Promise<SpeechEngine>;
}
