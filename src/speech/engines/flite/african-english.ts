/**
 * African English pronunciation as rules on Flite's phones (the CMU phone set, with lexical
 * stress 0, 1, 2 on vowels): between Flite's lexicon, which gives the US pronunciation of each
 * word, and its synthesis from phones. The features are those the phonologies cited in this
 * folder's README share for East African (Kenyan, Ugandan, Tanzanian), Nigerian and Rwandan
 * speakers of English. Each rule is a pure function, tested with the examples of those sources.
 */

import { baseOf, isVowel, stressOf } from './cmu-phones.ts';
import type { LexiconWord } from './lexicon.ts';

/** TH-stopping: the dental fricatives become stops, "think" [tink], "the" [de]. */
export function stopTh(phones: readonly string[]): string[] {
  return phones.map((phone) => (phone === 'th' ? 't' : phone === 'dh' ? 'd' : phone));
}

/** Whether `phones[i]` is followed by a vowel of the same word. */
const beforeVowel = (phones: readonly string[], i: number): boolean => {
  const next = phones[i + 1];
  return next !== undefined && isVowel(next);
};

/**
 * An r-coloured vowel as the plain vowel `base`, with its /r/ where a vowel follows (non-rhotic
 * accents drop /r/ only where no vowel follows: "every" [ɛvari], "arrive" [araiv]).
 */
function uncolour(phones: readonly string[], matches: (phone: string) => boolean, base: string): string[] {
  return phones.flatMap((phone, i) => {
    if (!matches(phone)) return [phone];
    const vowel = `${base}${stressOf(phone)}`;
    return beforeVowel(phones, i) ? [vowel, 'r'] : [vowel];
  });
}

/** NURSE is [ɛ] where US English has a stressed r-coloured vowel: "bird" [bɛd], "first" [fɛst]. */
export function nurse(phones: readonly string[]): string[] {
  return uncolour(phones, (phone) => baseOf(phone) === 'er' && stressOf(phone) !== '0', 'eh');
}

/** Unstressed -er (lettER) is [a]: "doctor" [dɔkta], "number" [namba]. */
export function lettEr(phones: readonly string[]): string[] {
  return uncolour(phones, (phone) => phone === 'er0', 'aa');
}

/**
 * NEAR and CURE end in [a] where the /r/ was: "near" [nia], "sure" [ʃua]; the r, not before a
 * vowel, goes.
 */
export function nearCure(phones: readonly string[]): string[] {
  const out: string[] = [];
  for (const [i, phone] of phones.entries()) {
    const before = out.at(-1);
    const base = before === undefined ? undefined : baseOf(before);
    if (
      phone === 'r' &&
      !beforeVowel(phones, i) &&
      before !== undefined &&
      (base === 'ih' || base === 'uh')
    ) {
      out[out.length - 1] = `${base === 'ih' ? 'iy' : 'uw'}${stressOf(before)}`;
      out.push('aa0');
    } else {
      out.push(phone);
    }
  }
  return out;
}

/** Non-rhotic: /r/ is spoken only before a vowel, "park" [pak], "for" [fɔ]; "red", "very" keep it. */
export function dropR(phones: readonly string[]): string[] {
  return phones.filter((phone, i) => phone !== 'r' || beforeVowel(phones, i));
}

/**
 * The five-vowel system: TRAP, BATH and STRUT are one open [a] ("thank" [taŋk], "cut" [kat]).
 */
export function openA(phones: readonly string[]): string[] {
  return phones.map((phone) => {
    const base = baseOf(phone);
    const stress = stressOf(phone);
    return base === 'ae' || (base === 'ah' && stress !== '0') ? `aa${stress}` : phone;
  });
}

/**
 * No vowel of a word is reduced to schwa: a reduced vowel takes the full vowel its spelling
 * shows ("about" [abaut], "support" [supɔt]); where the spelling cannot be matched to the vowels,
 * it becomes [a], the commonest reading of written schwa. The sources' examples are unstressed
 * syllables of words of two or more; a word of one syllable ("the", "to", "a") keeps its weak
 * form, which spelling misleads ("to" is never [tɔ]).
 */
export function fullVowels(word: LexiconWord): string[] {
  const vowels = word.phones.filter(isVowel).length;
  if (vowels < 2) return [...word.phones];
  const letters = vowelLetters(word.spelling, vowels);
  let nth = 0;
  return word.phones.map((phone) => {
    if (!isVowel(phone)) return phone;
    const letter = letters?.[nth];
    nth += 1;
    const base = baseOf(phone);
    const stress = stressOf(phone);
    return base === 'ax' || (base === 'ah' && stress === '0') ? `${spelledVowel(letter)}${stress}` : phone;
  });
}

/** The vowel a letter spells in a five-vowel reading. */
function spelledVowel(letter: string | undefined): string {
  switch (letter) {
    case 'e':
      return 'eh';
    case 'i':
    case 'y':
      return 'iy';
    case 'o':
      return 'ao';
    case 'u':
      return 'uw';
    default:
      return 'aa';
  }
}

/**
 * The letter that names each vowel spelling of a word ("about": a, o), when there are as many
 * as it has spoken vowels; a silent final "e" ("table" has two, "make" one) is dropped first.
 * A spelling of two or more letters is named by the letter a reader goes by: "ou" by u
 * ("famous" [femus]), "ai" and "ei" by e ("certain" [setɛn]), one that starts with i or e
 * before another vowel by the rest ("station" [steʃɔn], "special" [speʃal]); any other by its
 * first letter.
 */
function vowelLetters(spelling: string, spokenVowels: number): string[] | undefined {
  const lower = spelling.toLowerCase();
  const groups = [...lower.matchAll(/[aeiou]+|(?<=[^aeiou])y/g)].map((match) => namingLetter(match[0]));
  if (groups.length === spokenVowels) return groups;
  if (groups.length === spokenVowels + 1 && /[^aeiou]e$/.test(lower)) return groups.slice(0, -1);
  return undefined;
}

function namingLetter(group: string): string {
  if (group.length === 1) return group;
  if (group.startsWith('ou')) return 'u';
  if (group === 'ai' || group === 'ei') return 'e';
  if (group[0] === 'i' || group[0] === 'e') return namingLetter(group.slice(1));
  return group[0] as string;
}

/**
 * The accent's rules, each a feature the cited phonologies describe. The intelligibility bench
 * switches each off (or on) in turn to measure what it costs in words and how much of the
 * accent it carries (bench/README.md).
 */
export const africanEnglishRules = [
  'thStopping',
  'nonRhotic',
  'nurse',
  'lettEr',
  'nearCure',
  'fullVowels',
  'trapStrut',
] as const;
export type AfricanEnglishRule = (typeof africanEnglishRules)[number];

/**
 * The rules the voices speak with: the two that carry most of the accent for the fewest words a
 * US-trained listener misses (the ablation in bench/README.md). Non-rhotic speech, NURSE [ɛ],
 * lettER and TRAP as [ɑ] cost one to two words missed for each word they changed: Flite has no
 * open central [a], and its [ɑ] is heard as "on" ("and", "doctor", "number").
 */
export const spokenAfricanEnglishRules: readonly AfricanEnglishRule[] = ['thStopping', 'fullVowels'];

/**
 * One word in African English: the vowels first (spelling-based full vowels, then the open [a]),
 * then the consonants and the r-coloured vowels. Rhythm is left to the voices' pace (their
 * duration stretch): giving every unstressed vowel secondary stress, as a syllable-timing rule,
 * cost more words in the intelligibility bench than any other rule (bench/README.md).
 */
export function africanWord(
  word: LexiconWord,
  rules: readonly AfricanEnglishRule[] = spokenAfricanEnglishRules,
): string[] {
  const on = new Set(rules);
  const steps: [AfricanEnglishRule, (phones: readonly string[]) => string[]][] = [
    ['fullVowels', (phones) => fullVowels({ spelling: word.spelling, phones })],
    ['trapStrut', openA],
    ['thStopping', stopTh],
    ['nurse', nurse],
    ['lettEr', lettEr],
    ['nearCure', nearCure],
    ['nonRhotic', dropR],
  ];
  return steps.reduce<string[]>(
    (phones, [rule, step]) => (on.has(rule) ? step(phones) : phones),
    [...word.phones],
  );
}
