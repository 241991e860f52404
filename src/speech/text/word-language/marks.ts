/**
 * A word's language, when it was given rather than guessed: SSML `<lang>` and an account's
 * lexicon mark each word they decide with one private-use character before it, which travels
 * with the word through normalisation and clause splitting to the front-end that reads the
 * clause (`clause-languages.ts`). The marks are Ijwi's own: every client text is stripped of them
 * at the gate (`input-text.ts`), so a client can only ask for a language through `<lang>` or its
 * lexicon, never by writing the characters.
 */
import type { LanguageCode } from '../verbalizer.ts';

const MARKS: Readonly<Record<LanguageCode, string>> = { rw: '\uE0A0', en: '\uE0A1', fr: '\uE0A2' };
const LANGUAGE_OF_MARK: ReadonlyMap<string, LanguageCode> = new Map(
  Object.entries(MARKS).map(([language, mark]) => [mark, language as LanguageCode]),
);

/** Every mark, as a character class: `readable.ts` keeps them, the input gate removes them. */
export const MARK_CHARACTERS = '\\uE0A0-\\uE0A2';
const ANY_MARK = new RegExp(`[${MARK_CHARACTERS}]`, 'gu');
// A word as the marks and the detector see it: letters, with inner apostrophes and hyphens.
const WORD = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;

/** `text` with every word marked as a word of `language`. */
export function markWords(text: string, language: LanguageCode): string {
  const mark = MARKS[language];
  return withoutMarks(text).replace(WORD, (word) => `${mark}${word}`);
}

/** `text` without any mark, for what is shown to a person. */
export function withoutMarks(text: string): string {
  return text.replace(ANY_MARK, '');
}

/**
 * A client's text with each mark character it holds made a space, as any other character the
 * voices do not read becomes (`readable.ts`): it says nothing, and decides no word's language.
 */
export function clientText(text: string): string {
  return text.replace(ANY_MARK, ' ');
}

/** The language a mark names; undefined for any other character. */
export function languageOfMark(character: string | undefined): LanguageCode | undefined {
  return character === undefined ? undefined : LANGUAGE_OF_MARK.get(character);
}
