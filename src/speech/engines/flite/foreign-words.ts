/**
 * A clause with Kinyarwanda words, as Flite is given it. Flite decides whether to spell a token
 * letter by letter before it looks the token up, from the token's letters alone ("Rwanda",
 * "Nsengiyumva": spelled, whatever the lexicon addenda say), so each Kinyarwanda word is written
 * in the clause as a stand-in word Flite reads as a word, lower case and of open syllables
 * (`zazaba`, `zazabe`...), and the addenda give the stand-in the name's phones. The clause stays
 * one utterance, with the sentence's phrasing and intonation.
 */
import type { ClausePart, EngineInput } from '../engine.ts';
import { kinyarwandaFlitePhones } from './kinyarwanda-phones.ts';
import { clauseWords, type LexiconWord } from './lexicon.ts';

/** What Flite reads for a clause: its text, and the phones of the stand-ins written in it. */
export interface FliteClause {
  readonly text: string;
  /** Each stand-in (`spelling`) with the phones of the word it stands for. */
  readonly foreign: readonly LexiconWord[];
  /** The stand-ins, lower case, with the words they stand for as written. */
  readonly standsFor: ReadonlyMap<string, string>;
}

const CONSONANTS = 'bdfgklmnpstvz';
const VOWELS = 'aeiou';
const STAND_IN_PREFIX = 'zaza';

/** The `index`th stand-in: the prefix and open syllables that count in base 65. */
function standIn(index: number): string {
  let word = STAND_IN_PREFIX;
  let rest = index;
  do {
    const syllable = rest % (CONSONANTS.length * VOWELS.length);
    word += `${CONSONANTS[Math.floor(syllable / VOWELS.length)]}${VOWELS[syllable % VOWELS.length]}`;
    rest = Math.floor(rest / (CONSONANTS.length * VOWELS.length));
  } while (rest > 0);
  return word;
}

/** The phones of a part Flite says otherwise than English: a Kinyarwanda word with its IPA. */
function foreignPhones(part: ClausePart): string[] | undefined {
  if (part.kind !== 'word' || part.language !== 'rw' || part.ipa === undefined) return undefined;
  if (clauseWords(part.text).length !== 1) return undefined;
  const phones = kinyarwandaFlitePhones(part.ipa);
  return phones.length > 0 ? phones : undefined;
}

/**
 * A clause as Flite reads it: text input as it is; a mixed clause's parts joined as written, each
 * Kinyarwanda word as a stand-in no other word of the clause spells. A word of another language
 * Flite has no rules for (French) is read as English text.
 */
export function fliteClause(input: Exclude<EngineInput, { kind: 'phonemes' }>): FliteClause {
  if (input.kind === 'text') return { text: input.text, foreign: [], standsFor: new Map() };
  const taken = new Set(
    input.parts
      .flatMap((part) => (part.kind === 'phonemes' ? [] : clauseWords(part.text)))
      .map((w) => w.toLowerCase()),
  );
  const foreign: LexiconWord[] = [];
  const standsFor = new Map<string, string>();
  let next = 0;
  const text = input.parts
    .map((part) => {
      if (part.kind === 'phonemes') return ' ';
      const phones = foreignPhones(part);
      if (phones === undefined) return part.text;
      let spelling = standIn(next++);
      while (taken.has(spelling)) spelling = standIn(next++);
      foreign.push({ spelling, phones });
      standsFor.set(spelling, part.text);
      return spelling;
    })
    .join('');
  return { text, foreign, standsFor };
}
