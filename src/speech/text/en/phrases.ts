/**
 * English words a phrase can start with: conjunctions and prepositions that open a clause or a
 * prepositional phrase ("... | while I check", "... | on Tuesday", "... | and should arrive").
 * A cut before one falls where a speaker may pause. Left out: "to" (often an infinitive's),
 * "of" (inside a noun phrase), "that" (as often a determiner), "as", "than".
 */
const PHRASE_STARTS: ReadonlySet<string> = new Set([
  'about',
  'after',
  'although',
  'and',
  'at',
  'because',
  'before',
  'but',
  'by',
  'during',
  'for',
  'from',
  'if',
  'in',
  'into',
  'on',
  'once',
  'or',
  'since',
  'so',
  'though',
  'through',
  'unless',
  'until',
  'when',
  'where',
  'which',
  'while',
  'who',
  'with',
  'within',
  'without',
]);

/** Whether an English phrase may start with `word` (a word of normalised text, any case). */
export function startsEnglishPhrase(word: string): boolean {
  return PHRASE_STARTS.has(word.toLowerCase());
}
