/**
 * How much audio a character of input can produce, at most: the bound behind the stream's
 * free-trial decision and the cap every request is synthesised under (see `synthesize`). The
 * figures are each language's worst voice on the worst input found by `npm run bench:bound`
 * (long numbers read in words, digit strings, money, dates...), with a margin; the bench fails
 * when any input passes them. Pauses are included: plain text has none but punctuation's.
 */
import { MIN_RATE } from './input/document.ts';
import type { TextType } from './input/input-text.ts';
import type { LanguageCode } from './text/verbalizer.ts';

/** Seconds of audio per input character, at most, for plain text in each language. */
export const MAX_SECONDS_PER_CHARACTER: Readonly<Record<LanguageCode, number>> = {
  rw: 1.8,
  en: 1.0,
  fr: 0.9,
};

/**
 * The most audio seconds `characters` characters of input may produce. SSML may slow speech to
 * `MIN_RATE` of the voice's own, so its characters may last that much longer; its pauses are
 * capped per element and per request, and take more characters of markup than they last.
 */
export function audioBoundSeconds(language: LanguageCode, characters: number, textType: TextType): number {
  const perCharacter = MAX_SECONDS_PER_CHARACTER[language] / (textType === 'ssml' ? MIN_RATE : 1);
  return characters * perCharacter;
}
