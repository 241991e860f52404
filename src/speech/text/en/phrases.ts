/**
 * English words a phrase can start with: conjunctions and prepositions that open a clause or a
 * prepositional phrase ("... | while I check", "... | on Tuesday", "... | and should arrive").
 * A cut before one falls where a speaker may pause. Left out: "to" (often an infinitive's),
 * "of" (inside a noun phrase), "that" (as often a determiner), "through" (often a verb's
 * particle: "put you through"), "as", "than".
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

/**
 * Words a phrase does not end with: "be" and the auxiliaries leave it waiting for what they
 * introduce ("The ward is | on the fourth floor", "Sarah will be | with you").
 */
const OPEN_ENDS: ReadonlySet<string> = new Set([
  'am',
  'are',
  'be',
  'been',
  'being',
  'can',
  'could',
  'did',
  'do',
  'does',
  'is',
  'may',
  'might',
  'must',
  'shall',
  'should',
  'was',
  'were',
  'will',
  'would',
]);

/**
 * Whether an English phrase may start with `word` after `before` (words of normalised text, any
 * case): `word` opens a phrase and `before` can end one.
 */
export function startsEnglishPhrase(word: string, before: string): boolean {
  return PHRASE_STARTS.has(word.toLowerCase()) && !OPEN_ENDS.has(before.toLowerCase());
}
