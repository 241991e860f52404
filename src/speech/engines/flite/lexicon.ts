/**
 * The US pronunciation of a clause's words, from Flite's own lexicon and letter-to-sound rules:
 * Flite speaks the words with a pause between each (`lookupText`) and prints the phones it
 * spoke (`-pr SegmentStress`), which `lexiconWords` cuts back into words. The phones can then
 * be changed (an accent) and given back to Flite as a lexicon addenda (`lexiconAddenda`), which
 * it consults before its own lexicon while it speaks the clause as text.
 */

import { isPhone, PAUSE } from './cmu-phones.ts';

/** One word of a clause: as written, and its phones from the lexicon (`aa1`, `t`, ...). */
export interface LexiconWord {
  readonly spelling: string;
  readonly phones: readonly string[];
}

/** The words of a clause: runs of letters with inner apostrophes; anything else separates them. */
export function clauseWords(text: string): string[] {
  return Array.from(text.matchAll(/[\p{L}\p{M}]+(?:'[\p{L}\p{M}]+)*/gu), ([word]) => word);
}

/** The text that makes Flite's lexicon print one word between each pair of pauses. */
export function lookupText(words: readonly string[]): string {
  return words.join(', ');
}

/**
 * Flite's printed segments (`-pr SegmentStress`) cut into words at its pauses: one list of
 * phones per word of `lookupText`, or undefined when they do not match the words one to one
 * (a word Flite read as two, say), or hold anything but the phone set's names: only those
 * ever go back to Flite.
 */
export function lexiconWords(words: readonly string[], printed: string): LexiconWord[] | undefined {
  const groups: string[][] = [[]];
  for (const phone of printed.trim().split(/\s+/)) {
    if (!isPhone(phone)) return undefined;
    if (phone === PAUSE) {
      if ((groups.at(-1) as string[]).length > 0) groups.push([]);
    } else {
      (groups.at(-1) as string[]).push(phone);
    }
  }
  if ((groups.at(-1) as string[]).length === 0) groups.pop();
  if (groups.length !== words.length) return undefined;
  return words.map((spelling, i) => ({ spelling, phones: groups[i] as string[] }));
}

/**
 * A lexicon addenda file (`-add_lex`): one `word : phones` line per word, lower case as Flite
 * looks words up, the first pronunciation of a word kept. Words are letters and apostrophes
 * only, and phones names of the phone set, so a line cannot hold anything else.
 */
export function lexiconAddenda(words: readonly LexiconWord[]): string {
  const entries = new Map<string, string>();
  for (const { spelling, phones } of words) {
    const key = spelling.toLowerCase();
    if (!entries.has(key)) entries.set(key, `${key} : ${phones.join(' ')}\n`);
  }
  return [...entries.values()].join('');
}
