/**
 * African English pronunciation as rules on Flite's phones (the CMU phone set, with lexical
 * stress 0, 1, 2 on vowels): between Flite's lexicon, which gives the US pronunciation of each
 * word, and its synthesis from phones. The features are those the phonologies cited in this
 * folder's README share for East African (Kenyan, Ugandan, Tanzanian), Nigerian and Rwandan
 * speakers of English. Each rule is a pure function, tested with the examples of those sources.
 */

import { baseOf, isVowel, stressOf } from './cmu-phones.ts';
import type { LexiconWord } from './lexicon.ts';

/**
 * TH-stopping, one rule for each dental fricative, since the sources describe it as variable and
 * a voice may speak one without the other: the voiceless one becomes [t], "think" [tink]...
 */
export function stopTh(phones: readonly string[]): string[] {
  return phones.map((phone) => (phone === 'th' ? 't' : phone));
}

/** ...and the voiced one [d], "the" [de], "mother" [mada]. */
export function stopDh(phones: readonly string[]): string[] {
  return phones.map((phone) => (phone === 'dh' ? 'd' : phone));
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

/** Whether `phones[i]` is followed by an /r/ (NEAR and CURE, not KIT and FOOT). */
const beforeR = (phones: readonly string[], i: number): boolean => phones[i + 1] === 'r';

/**
 * KIT is FLEECE's [i] in the unstressed syllables of words of two or more: "morning" [mɔniŋ],
 * "before" [bifɔ], "clinic" [klinik]. Not in a stressed syllable, where it would merge words a
 * listener must tell apart ("it" and "eat", "live" and "leave", "will" and "wheel"), nor in a
 * word of one syllable, whose weak form stays ("in"); NEAR ("here") is `nearCure`'s.
 */
export function kitFleece(phones: readonly string[]): string[] {
  if (phones.filter(isVowel).length < 2) return [...phones];
  return phones.map((phone, i) => (phone === 'ih0' && !beforeR(phones, i) ? 'iy0' : phone));
}

/** FOOT is GOOSE's [u]: "good" [gud], "book" [buk], "could" [kud]; CURE ("sure") is `nearCure`'s. */
export function footGoose(phones: readonly string[]): string[] {
  return phones.map((phone, i) =>
    baseOf(phone) === 'uh' && !beforeR(phones, i) ? `uw${stressOf(phone)}` : phone,
  );
}

/** The consonants before which an "o" spells STRUT as often as LOT ("come", "one", "love", "mother"). */
const STRUT_BEFORE = new Set(['m', 'n', 'ng', 'v', 'th', 'dh']);

/**
 * LOT is THOUGHT's [ɔ]: "doctor" [dɔkta], "sorry" [sɔri], "dollars" [dɔlas]. Flite's lexicon says
 * LOT and STRUT alike, [ɑ], so LOT is told by its spelling: a single "o", and no m, n, v or th
 * after it, where an "o" spells STRUT as often (STRUT is [a]: "one" [wan], "money" [mani]); "on",
 * "from", "of" stay [ɑ] with them. An [ɑ] spelt "a" (START, PALM, "Kigali") is the five vowels'
 * [a], which Flite's [ɑ] already is.
 */
export function lotThought(word: LexiconWord): string[] {
  const spelt = vowelSpellings(word.spelling, word.phones.filter(isVowel).length);
  let nth = -1;
  return word.phones.map((phone, i) => {
    if (!isVowel(phone)) return phone;
    nth += 1;
    const lot = spelt?.[nth]?.group === 'o' && !STRUT_BEFORE.has(word.phones[i + 1] ?? '');
    return baseOf(phone) === 'aa' && lot ? `ao${stressOf(phone)}` : phone;
  });
}

/**
 * The "-day" of the weekdays as its spelling shows, FACE: "Monday" [mandei], "Friday" [fraidei]
 * (British English has it too), where US English reduces it to [i].
 */
export function spelledDay(word: LexiconWord): string[] {
  const last = word.phones.length - 1;
  const day = /day$/i.test(word.spelling) && word.phones[last] === 'iy0' && word.phones[last - 1] === 'd';
  return day ? [...word.phones.slice(0, last), 'ey0'] : [...word.phones];
}

/**
 * No vowel of a word is reduced to schwa: a reduced vowel takes the full vowel its spelling
 * shows ("about" [abaut], "support" [supɔt], "second" [sɛkɔnd]). The sources' examples are
 * unstressed syllables of words of two or more; a word of one syllable ("the", "to", "a") keeps
 * its weak form, which spelling misleads ("to" is never [tɔ]). Left as they are, rather than
 * guessed: a vowel whose spelling cannot be matched ("minutes": three vowel letters, two
 * vowels), and one spelt i or y, which English spelling gives to schwa as often as to [i]
 * ("office", "mobile", "holidays"), and whose [i] cost the most words in the intelligibility
 * bench (bench/README.md).
 */
export function fullVowels(word: LexiconWord): string[] {
  const vowels = word.phones.filter(isVowel).length;
  if (vowels < 2) return [...word.phones];
  const spelt = vowelSpellings(word.spelling, vowels);
  if (spelt === undefined) return [...word.phones];
  let nth = -1;
  return word.phones.map((phone) => {
    if (!isVowel(phone)) return phone;
    nth += 1;
    const stress = stressOf(phone);
    const reduced = baseOf(phone) === 'ax' || phone === 'ah0';
    const full = reduced ? spelledVowel(spelt[nth] as VowelSpelling) : undefined;
    return full === undefined ? phone : `${full}${stress}`;
  });
}

/**
 * The vowel a spelling gives in a five-vowel reading: a [a], e [ɛ], o [ɔ], u [u] (i and y:
 * none, above). An "a" before a consonant and a silent final "e" reads as FACE, [e] (Flite's
 * nearest, [ɛ]): "message" [mɛsedʒ], "private" [praivet]. An open first syllable reads as the
 * word it spells: "to" [tu] ("today" [tudei], "tomorrow" [tumɔrɔ]), and "re", "be", "de" with
 * [i] ("select" [silɛkt]).
 */
function spelledVowel({ group, before, after }: VowelSpelling): string | undefined {
  const openFirst = /^[^aeiouy]+$/.test(before) && /^[^aeiouy][aeiouy]/.test(after);
  if (openFirst && group === 'o' && before === 't') return 'uw';
  if (openFirst && group === 'e') return 'iy';
  switch (namingLetter(group)) {
    case 'a':
      return /^[^aeiou]e[sd]?$/.test(after) ? 'eh' : 'aa';
    case 'e':
      return 'eh';
    case 'o':
      return 'ao';
    case 'u':
      return 'uw';
    default:
      return undefined;
  }
}

/** A vowel's spelling in a word: its letters, and the word's letters before and after them. */
interface VowelSpelling {
  readonly group: string;
  readonly before: string;
  readonly after: string;
}

/**
 * Each vowel spelling of a word ("about": a, ou), when there are as many as it has spoken
 * vowels; a silent final "e" ("table" has two, "make" one) is dropped first.
 */
function vowelSpellings(spelling: string, spokenVowels: number): VowelSpelling[] | undefined {
  const lower = spelling.toLowerCase();
  const groups = [...lower.matchAll(/[aeiou]+|(?<=[^aeiou])y/g)].map((match) => ({
    group: match[0],
    before: lower.slice(0, match.index),
    after: lower.slice(match.index + match[0].length),
  }));
  if (groups.length === spokenVowels) return groups;
  if (groups.length === spokenVowels + 1 && /[^aeiou]e$/.test(lower)) return groups.slice(0, -1);
  return undefined;
}

/**
 * The letter a reader goes by in a vowel spelling of two or more letters: "ou" by u ("famous"
 * [femus]), "ai" and "ei" by e ("certain" [setɛn]), one that starts with i or e before another
 * vowel by the rest ("station" [steʃɔn], "special" [speʃal]); any other by its first letter.
 */
function namingLetter(group: string): string {
  if (group.length === 1) return group;
  if (group.startsWith('ou')) return 'u';
  if (group === 'ai' || group === 'ei') return 'e';
  if (group[0] === 'i' || group[0] === 'e') return namingLetter(group.slice(1));
  return group[0] as string;
}

/**
 * The accent's rules, each a feature the cited phonologies describe. Each voice speaks with
 * those that carry most of the accent for the fewest words its recorded speaker's listener
 * misses (`accentRules` in voices.ts); the intelligibility bench switches each off (or on) in
 * turn to measure what it costs in words and how much of the accent it carries
 * (bench/README.md).
 */
export const africanEnglishRules = [
  'thStopping',
  'dhStopping',
  'nonRhotic',
  'nurse',
  'lettEr',
  'nearCure',
  'fullVowels',
  'trapStrut',
  'kitFleece',
  'footGoose',
  'lotThought',
  'spelledDay',
] as const;
export type AfricanEnglishRule = (typeof africanEnglishRules)[number];

/**
 * One word in African English, with `rules` (all of them unless told): the vowels first (the
 * spelling-based ones, then the mergers of the five-vowel system), then the consonants and the
 * r-coloured vowels. Rhythm is left to the voices' pace (their
 * duration stretch): giving every unstressed vowel secondary stress, as a syllable-timing rule,
 * cost more words in the intelligibility bench than any other rule (bench/README.md).
 */
export function africanWord(
  word: LexiconWord,
  rules: readonly AfricanEnglishRule[] = africanEnglishRules,
): string[] {
  const on = new Set(rules);
  const steps: [AfricanEnglishRule, (phones: readonly string[]) => string[]][] = [
    ['fullVowels', (phones) => fullVowels({ spelling: word.spelling, phones })],
    ['lotThought', (phones) => lotThought({ spelling: word.spelling, phones })],
    ['spelledDay', (phones) => spelledDay({ spelling: word.spelling, phones })],
    ['trapStrut', openA],
    ['kitFleece', kitFleece],
    ['footGoose', footGoose],
    ['thStopping', stopTh],
    ['dhStopping', stopDh],
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
