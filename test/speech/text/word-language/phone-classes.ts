/**
 * The vowels a foreign word must be said with, as classes of the five Kinyarwanda vowels
 * a e i o u, derived from independent sources (the word's Kinyarwanda spelling, the Carnegie Mellon
 * Pronouncing Dictionary, a French dictionary's IPA), and the vowels a voice's IPA says. A check
 * compares the two sequences: a vowel more (a letter spelled out, an English word read with
 * Kinyarwanda spelling rules), a vowel less (a silent final e) or another vowel ([y] for u, a
 * reduced [ə] for a Kinyarwanda a) fails it.
 *
 * The adaptations follow the tables of src/speech/engines/espeak-ng/foreign-words.ts and their
 * sources (src/speech/text/word-language/README.md), written here again as classes so that the
 * test does not take its expectation from the code it checks.
 */
import { dictionary } from 'cmu-pronouncing-dictionary';

export type VowelClass = 'a' | 'e' | 'i' | 'o' | 'u';

/** One expected vowel: the classes it may be said as; `optional` when a dictionary may omit it. */
export interface ExpectedVowel {
  readonly classes: readonly VowelClass[];
  readonly optional?: boolean;
}

const only = (...classes: VowelClass[]): ExpectedVowel => ({ classes });

// IPA vowels of the voices' output that are one of the five; every other vowel symbol is itself
// (ə, æ, ɪ, ʊ, ʌ, y, ø ... never match an expected class).
const FIVE: Readonly<Record<string, VowelClass>> = {
  a: 'a',
  ɑ: 'a',
  e: 'e',
  ɛ: 'e',
  i: 'i',
  o: 'o',
  ɔ: 'o',
  u: 'u',
};
const VOWEL_SYMBOLS = /[aɑɐæeɛəɘɜɝɚiɪɨᵻyʏoɔɒøœɵuʊʉʌɤ]/u;
const NASAL = '\u0303';
// An English diphthong's glide is part of its vowel: [eɪ] is e, [oʊ] is o ([aɪ] stays two).
const GLIDES: Readonly<Record<string, string>> = { e: 'ɪ', o: 'ʊ' };

/**
 * The vowels of an IPA word as said: one of the five classes, or the symbol itself for any other
 * vowel (a nasal vowel keeps its tilde). Stress and length marks are not vowels.
 */
export function saidVowels(ipa: string): string[] {
  const symbols = Array.from(ipa.normalize('NFD').replace(/[ˈˌːˑ]|\u0361|\u035C/gu, ''));
  const vowels: string[] = [];
  for (let i = 0; i < symbols.length; i++) {
    const symbol = symbols[i] as string;
    if (!VOWEL_SYMBOLS.test(symbol)) continue;
    const nasal = symbols[i + 1] === NASAL;
    vowels.push(nasal ? `${symbol}${NASAL}` : (FIVE[symbol] ?? symbol));
    if (nasal) i++;
    else if (GLIDES[symbol] !== undefined && symbols[i + 1] === GLIDES[symbol]) i++;
  }
  return vowels;
}

/** Whether `said` (from `saidVowels`) is `expected`, vowel for vowel, optional ones skipped or not. */
export function matchesVowels(said: readonly string[], expected: readonly ExpectedVowel[]): boolean {
  const at = (s: number, e: number): boolean => {
    if (e === expected.length) return s === said.length;
    const want = expected[e] as ExpectedVowel;
    const here =
      s < said.length && (want.classes as readonly string[]).includes(said[s] as string) && at(s + 1, e + 1);
    return here || (want.optional === true && at(s, e + 1));
  };
  return at(0, 0);
}

/**
 * A Kinyarwanda word's vowels from its spelling: Kinyarwanda writes each vowel it says, a doubled
 * letter being one long vowel (I. Jacob, "Dictionnaire rwandais-français"; Kimenyi 1979,
 * "Studies in Kinyarwanda and Bantu phonology"); y and w are consonants.
 */
export function kinyarwandaSpellingVowels(word: string): ExpectedVowel[] {
  const letters = word.toLowerCase().replace(/([aeiou])\1+/gu, '$1');
  return Array.from(letters.matchAll(/[aeiou]/gu), ([letter]) => only(letter as VowelClass));
}

// English vowels in a Kinyarwanda voice (foreign-words.ts, ENGLISH_IN_KINYARWANDA: Schmied 2004,
// Wells 1982): Carnegie Mellon's US vowels, with the British ones espeak-ng's English gives where
// they differ (AA: US [ɑ], British [ɒ] in "lot").
const ARPABET: Readonly<Record<string, readonly ExpectedVowel[]>> = {
  AA: [only('a', 'o')],
  AE: [only('a')],
  AH: [only('a')],
  AO: [only('o')],
  AW: [only('a'), only('u')],
  AY: [only('a'), only('i')],
  EH: [only('e')],
  ER: [only('e')],
  EY: [only('e')],
  IH: [only('i')],
  IY: [only('i')],
  OW: [only('o')],
  OY: [only('o'), only('i')],
  UH: [only('u')],
  UW: [only('u')],
};
// An unstressed AH, IH or ER is reduced, and dictionaries disagree on its quality ("ticket": CMU
// T IH1 K AH0 T, British [tˈɪkɪt]): any of the vowels it is adapted to ([ə] a, [ɪ] i, [ɛ] e).
const REDUCED = new Set(['AH0', 'IH0', 'ER0']);
// Before an R that no vowel follows, British English says a centring diphthong ([eə] "care",
// [ɪə] "here", [ʊə] "tour"), adapted as the vowel and a.
const CENTRING = new Set(['EH', 'IH', 'UH']);

/** The vowels of one Carnegie Mellon pronunciation ("R IH0 S IY1 T") in a Kinyarwanda voice. */
function cmuVowels(pronunciation: string): ExpectedVowel[] {
  const phones = pronunciation.split(' ');
  return phones.flatMap((phone, index) => {
    const base = phone.replace(/\d/u, '');
    const vowels = ARPABET[base];
    if (vowels === undefined) return [];
    if (REDUCED.has(phone)) return [only('a', 'e', 'i')];
    const next = phones[index + 1];
    const afterNext = phones[index + 2]?.replace(/\d/u, '');
    const centring =
      CENTRING.has(base) && next === 'R' && (afterNext === undefined || ARPABET[afterNext] === undefined);
    return centring ? [...vowels, { classes: ['a'], optional: true }] : vowels;
  });
}

/** Every Carnegie Mellon pronunciation of an English word, as vowels; none when it is not there. */
export function englishDictionaryVowels(word: string): ExpectedVowel[][] {
  const key = word.toLowerCase();
  const found: ExpectedVowel[][] = [];
  for (let n = 1; ; n++) {
    const pronunciation = dictionary[n === 1 ? key : `${key}(${n})`];
    if (pronunciation === undefined) return found;
    found.push(cmuVowels(pronunciation));
  }
}

// French vowels in a Kinyarwanda voice (foreign-words.ts, FRENCH_IN_KINYARWANDA: Kayigema 2010):
// rounded front vowels unrounded, nasal vowels as the oral vowel and n.
const FRENCH: Readonly<Record<string, VowelClass>> = {
  i: 'i',
  y: 'i',
  e: 'e',
  ɛ: 'e',
  ø: 'e',
  œ: 'e',
  ə: 'e',
  a: 'a',
  ɑ: 'a',
  o: 'o',
  ɔ: 'o',
  u: 'u',
};

/** A French word's vowels, from its dictionary IPA (syllable dots and liaison marks ignored). */
export function frenchDictionaryVowels(ipa: string): ExpectedVowel[] {
  return Array.from(ipa.normalize('NFD'))
    .filter((symbol) => FRENCH[symbol] !== undefined)
    .map((symbol) => only(FRENCH[symbol] as VowelClass));
}

/** A readable form of expected vowels, for failure messages: "e i|a (a)". */
export function describeVowels(expected: readonly ExpectedVowel[]): string {
  return expected.map((v) => (v.optional ? `(${v.classes.join('|')})` : v.classes.join('|'))).join(' ');
}
