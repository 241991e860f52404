/**
 * Whether a written word could be a Kinyarwanda word: its letters, its syllables and its end.
 * Kinyarwanda syllables are open, (N)C(G)V (Kimenyi 1979, "Studies in Kinyarwanda and Bantu
 * phonology"; Wikipedia "Kinyarwanda", Phonology and Orthography): an optional nasal before the
 * consonant (mb, nd, ng, nk, ns, nz, nc, nj, mf, mv, mp, nt, nsh), one consonant or digraph
 * (sh, cy, jy, ny, pf, ts), an optional glide (y, w: by, ry, shy, mw, rw, nyw, ...) and one or two
 * vowels (a doubled vowel is long; two unlike ones meet in a few words). Every word ends in a
 * vowel; q and x are not written; l only in loans, which are respelled with r, so it is allowed
 * but counts against a word (see `detect.ts`).
 */

// The spelling as the rules read it: lower case, no tone marks or accents.
const MARKS = /\p{M}/gu;
const SYLLABLES = /^(?:(?:[mn]?(?:sh|cy|jy|pf|ts|[bcdfghjklprstvz])|ny|[mn])?[yw]?[aeiou]{1,2})+$/u;
const ELIDED = /^[bcdghjkmnrstwyz]$/u;

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
