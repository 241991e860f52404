/**
 * Whether a written word could be a Kinyarwanda word: its letters, its syllables and its end.
 * Kinyarwanda syllables are open, (N)C(G)V (Kimenyi 1979, "Studies in Kinyarwanda and Bantu
 * phonology"; Wikipedia "Kinyarwanda", Phonology and Orthography): an optional nasal before the
 * consonant (mb, nd, ng, nk, ns, nz, nc, nj, mf, mv, mp, nt, nsh), one consonant or digraph
 * (sh, cy, jy, ny, pf, ts), an optional glide (y, w: by, ry, shy, mw, rw, nyw, ...) and a vowel,
 * written double when it is long. Two unlike vowels do not meet in the spelling: where morphemes
 * bring them together, a glide is written or the first is elided (umwana, n'umwana). Every word
 * ends in a vowel; q and x are not written; l only in loans and in names (Kalisa, Kigali).
 */

// The spelling as the rules read it: lower case, no tone marks or accents.
const MARKS = /\p{M}/gu;
const CONSONANTS = '(?:(?:[mn]?(?:sh|cy|jy|pf|ts|[bcdfghjklprstvz])|ny|[mn])[yw]?|[yw])';
const VOWEL = '(?:aa?|ee?|ii?|oo?|uu?)';
// Only a word's first syllable may be a vowel alone: inside a word, a vowel follows a consonant.
const SYLLABLES = new RegExp(`^${CONSONANTS}?${VOWEL}(?:${CONSONANTS}${VOWEL})*$`, 'u');
// What is left of a word whose vowel is elided before an apostrophe: n', y', cy', by', rw'.
const ELIDED = new RegExp(`^${CONSONANTS}$`, 'u');

/** The word as Kinyarwanda spelling rules read it: lower case, without tone marks. */
export function kinyarwandaSpelling(word: string): string {
  return word.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/**
 * Whether `word` (letters, with inner apostrophes for elision: n'Imana, y'u Rwanda) is spelled as
 * a Kinyarwanda word can be. An elided part before an apostrophe is a consonant alone, or a
 * syllable; each part after it a word.
 */
export function fitsKinyarwanda(word: string): boolean {
  const parts = kinyarwandaSpelling(word).split(/['’]/u);
  return parts.every((part, i) =>
    i < parts.length - 1 ? ELIDED.test(part) || SYLLABLES.test(part) : SYLLABLES.test(part),
  );
}
