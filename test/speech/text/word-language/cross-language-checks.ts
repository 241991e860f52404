/**
 * What a voice's IPA for one case of the cross-language corpus must hold, whatever path printed
 * it: its words one for one with the line's (nothing spelled letter by letter, nothing dropped),
 * each foreign word with the vowels its source gives (`phone-classes.ts`) and none of the sounds a
 * bilingual Rwandan would not use. A native case is compared whole with its reference by the
 * caller.
 */
import { frontEndFor } from '../../../../src/speech/text/front-end.ts';
import { withoutMarks } from '../../../../src/speech/text/word-language/marks.ts';
import type { CrossLanguageCase, ForeignWordCase } from './cross-language-corpus.ts';
import {
  describeVowels,
  type ExpectedVowel,
  englishDictionaryVowels,
  frenchDictionaryVowels,
  kinyarwandaSpellingVowels,
  matchesVowels,
  saidVowels,
} from './phone-classes.ts';

const WORD = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;

/** The words of a case as its voice says them: after normalisation (an address becomes words). */
export function spokenWords(c: CrossLanguageCase): string[] {
  const normalized = withoutMarks(frontEndFor(c.language).normalize(c.text));
  return Array.from(normalized.matchAll(WORD), ([word]) => word);
}

/** The words of one line of IPA: its punctuation apart. */
export function ipaWords(line: string): string[] {
  return line.split(/\s+/u).filter((token) => /\p{L}/u.test(token));
}

/** The vowels `word` must be said with, each list one acceptable pronunciation. */
function expectedVowels(word: ForeignWordCase): ExpectedVowel[][] {
  if (word.language === 'rw') return [kinyarwandaSpellingVowels(word.word)];
  if (word.language === 'en') return englishDictionaryVowels(word.word);
  return word.ipa === undefined ? [] : [frenchDictionaryVowels(word.ipa)];
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** Sounds a foreign word must not have in the voice that says it, beyond its vowels. */
function soundProblems(word: ForeignWordCase, said: string): string[] {
  const problems: string[] = [];
  if (said.normalize('NFD').includes('\u0303')) problems.push('a nasal vowel');
  if (word.language === 'rw') {
    const spelled = word.word.toLowerCase();
    // Kinyarwanda g is always [ɡ] and c never [s] (Jacob's dictionary; the rw g2p README).
    if (count(said, /[ɡg]/gu) < count(spelled, /g/gu)) problems.push('a g not said [ɡ]');
    if (count(said, /[sz]/gu) > count(spelled, /[sz]/gu)) problems.push('an [s] or [z] not written');
  }
  if (word.language === 'fr' && /[ʁyøœ]/u.test(said))
    problems.push('a French sound the voice lacks ([ʁ y ø œ])');
  return problems;
}

/**
 * What is wrong with `line`, a voice's IPA for foreign case `c`; empty when nothing is. The line
 * must have one IPA word for each spoken word, and each foreign word the expected vowels.
 */
export function foreignCaseProblems(c: CrossLanguageCase, line: string): string[] {
  const words = spokenWords(c);
  const said = ipaWords(line);
  if (said.length !== words.length)
    return [`${words.length} words read as ${said.length}: a word spelled out, dropped or split`];
  const problems: string[] = [];
  let from = 0;
  for (const foreign of c.foreign) {
    const index = words.findIndex((w, i) => i >= from && w.toLowerCase() === foreign.word.toLowerCase());
    if (index < 0) {
      problems.push(`"${foreign.word}" is not a word of the line`);
      continue;
    }
    from = index + 1;
    const ipa = said[index] as string;
    const expected = expectedVowels(foreign);
    if (expected.length === 0) problems.push(`"${foreign.word}" has no pronunciation in its source`);
    else if (!expected.some((vowels) => matchesVowels(saidVowels(ipa), vowels)))
      problems.push(
        `"${foreign.word}" [${ipa}]: vowels ${saidVowels(ipa).join(' ')}, expected ${expected.map(describeVowels).join(' or ')}`,
      );
    for (const problem of soundProblems(foreign, ipa))
      problems.push(`"${foreign.word}" [${ipa}]: ${problem}`);
  }
  return problems;
}
