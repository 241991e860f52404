/**
 * The one speech document. Plain text and SSML both become this value before any engine sees
 * them: a list of segments, each read one way, with the pauses and speaking rates between them.
 * Normalisation, grapheme-to-phoneme rules, clause splitting and billing's character count read
 * it; only the SSML parser and `plainDocument` build it. Engines therefore receive words or
 * phonemes that Ijwi wrote, never markup a client sent.
 */
import { codePointCount } from '../../unicode.ts';

/** Speaking rate as a multiple of the voice's own: 0.5 (half as fast) to 2 (twice as fast). */
export const MIN_RATE = 0.5;
export const MAX_RATE = 2;

/** The longest pause one `break` may ask for, and all of a request's breaks together. */
export const MAX_BREAK_MS = 5_000;
export const MAX_BREAKS_MS_PER_REQUEST = 10_000;

export type SpeechSegment =
  /** Text as a person wrote it: numbers, dates and abbreviations are read by the language's rules. */
  | { readonly kind: 'text'; readonly text: string; readonly rate: number }
  /** Words already spelled out as they are to be said (a `say-as` reading, a `sub` alias): not normalised again. */
  | { readonly kind: 'words'; readonly text: string; readonly rate: number }
  /** IPA given by the client, checked against the symbols the voice can say. */
  | { readonly kind: 'phonemes'; readonly ipa: string; readonly rate: number }
  /** Silence, in milliseconds; never more than `MAX_BREAK_MS`. */
  | { readonly kind: 'break'; readonly ms: number };

export interface SpeechDocument {
  readonly segments: readonly SpeechSegment[];
  /**
   * Characters of the text that is spoken, the unit of the token rule: the input itself for
   * plain text; for SSML, the text of its segments (a `sub` counts its alias), markup excluded.
   */
  readonly spokenCharacters: number;
}

/** A plain-text request as a document: its trimmed text, one segment at the voice's own rate. */
export function plainDocument(text: string): SpeechDocument {
  const trimmed = text.trim();
  return { segments: [{ kind: 'text', text: trimmed, rate: 1 }], spokenCharacters: codePointCount(trimmed) };
}
