/**
 * The characters a language's voices read, and what becomes of the others. espeak-ng reads a
 * character it has no word for by its name or its code ("W circumflex", "letter ...", a
 * mathematical bold A): seconds of audio for one character, which no caller wants to hear and
 * which would let a short text make long audio (see ../audio-bound.ts). So before anything else
 * reads a text, a character outside the language's alphabet becomes its compatibility form when
 * that is one character of the alphabet (NFKC: 𝐀 -> A, ５ -> 5), or loses its accents when that
 * makes it one (Ŵ -> W); every other character is skipped like a symbol, as a space. One
 * character never becomes several (㉗ is not "27", ㎤ not "cm3"): a character's audio stays a
 * character's.
 */
import { codePointCount } from '../../unicode.ts';
import type { LanguageCode } from './verbalizer.ts';
import { MARK_CHARACTERS } from './word-language/marks.ts';

// Digits, ASCII punctuation and symbols, whitespace, the typographic marks and currency signs
// that Rwandan, English and French text uses, and Ijwi's own marks of a word's language (which no
// client text holds: the input gate removes them).
const COMMON = `0-9\\s!-/:-@\\[-\`{-~«»“”‘’‚„–—…€£°·${MARK_CHARACTERS}`;
const LATIN = 'A-Za-z';
const FRENCH = 'ÀÂÆÇÈÉÊËÎÏÔŒÙÛÜŸàâæçèéêëîïôœùûüÿ';

// Kinyarwanda keeps tone marks and French names' accents: its own rules drop them. It also
// keeps the fraction characters, which its normaliser reads (½ "kimwe cya kabiri").
const ALPHABET: Readonly<Record<LanguageCode, string>> = {
  rw: `${COMMON}${LATIN}${FRENCH}\\u0300-\\u036F½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞`,
  en: `${COMMON}${LATIN}`,
  fr: `${COMMON}${LATIN}${FRENCH}`,
};
const OUTSIDE = Object.fromEntries(
  Object.entries(ALPHABET).map(([language, set]) => [language, new RegExp(`[^${set}]`, 'gu')]),
) as Readonly<Record<LanguageCode, RegExp>>;
const INSIDE = Object.fromEntries(
  Object.entries(ALPHABET).map(([language, set]) => [language, new RegExp(`^[${set}]+$`, 'u')]),
) as Readonly<Record<LanguageCode, RegExp>>;
const MARKS = /\p{M}/gu;
// French reads a letter standing alone by its name and its accent's ("a accent circonflexe":
// 1.3 s for one character). No French word is such a letter, bar "à", which keeps its accent.
const LONE_ACCENTED_LETTER = /(?<![\p{L}\p{N}])(?!à|À)[À-ÿŒœŸ](?![\p{L}\p{N}])/gu;

/** `text` with only the characters `language`'s voices read; the others become spaces. */
export function readableText(text: string, language: LanguageCode): string {
  const inside = INSIDE[language];
  const stripAccents = (character: string) => character.normalize('NFD').replace(MARKS, '');
  const readable = text.normalize('NFC').replace(OUTSIDE[language], (character) => {
    // The minus sign of mathematics reads as the hyphen-minus every rule knows.
    if (character === '\u2212') return '-';
    const compatible = character.normalize('NFKC');
    if (codePointCount(compatible) === 1 && inside.test(compatible)) return compatible;
    const bare = stripAccents(compatible);
    return codePointCount(bare) === 1 && inside.test(bare) ? bare : ' ';
  });
  return language === 'fr' ? readable.replace(LONE_ACCENTED_LETTER, stripAccents) : readable;
}
