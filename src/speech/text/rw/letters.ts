import { UNIT_NAMES } from './units.ts';

// Letter names for acronyms spelled out (MTN, RDB, REB). Kinyarwanda has no name for letters of its
// own in common use; acronyms of Rwandan institutions, most of them English names since English
// became a language of instruction in 2008, are said with English letter names. They are written
// here in Kinyarwanda spelling so that the grapheme-to-phoneme step reads them (c is /tʃ/, jy /dʒ/).
// This is a decision to review with native speakers; French-style names (be, se, de) would be the
// alternative for older French acronyms such as FPR.
const LETTERS: Readonly<Record<string, string>> = {
  A: 'eyi',
  B: 'bi',
  C: 'si',
  D: 'di',
  E: 'i',
  F: 'efu',
  G: 'jyi',
  H: 'eyici',
  I: 'ayi',
  J: 'jyeyi',
  K: 'keyi',
  L: 'eli',
  M: 'emu',
  N: 'eni',
  O: 'o',
  P: 'pi',
  Q: 'kiyu',
  R: 'ari',
  S: 'esi',
  T: 'ti',
  U: 'yu',
  V: 'vi',
  W: 'dabuliyu',
  X: 'egisi',
  Y: 'wayi',
  Z: 'zedi',
};

/** The spoken name of one letter in Kinyarwanda spelling ("R" gives "ari"); anything else comes back lower-cased. */
export function letterName(upperCaseLetter: string): string {
  return LETTERS[upperCaseLetter.toUpperCase()] ?? upperCaseLetter.toLowerCase();
}

/**
 * Abbreviations as written in Kinyarwanda texts, with the loanword Rwandan media use for each title
 * (Dogiteri, Porofeseri, Nyakubahwa...). Units are here for a unit written alone; a unit after a
 * number is read by the `unit-after-number` rule so that the noun comes first (ibiro bitanu, 5 kg).
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'Dr.': 'dogiteri',
  Dr: 'dogiteri',
  'Prof.': 'porofeseri',
  'Nyak.': 'nyakubahwa',
  'Mgr.': 'musenyeri',
  'Amb.': 'ambasaderi',
  'Gen.': 'jenerali',
  'Col.': 'koloneli',
  'Maj.': 'majoro',
  'Capt.': 'kapiteni',
  'n°': 'nomero',
  'N°': 'nomero',
  'No.': 'nomero',
  'Tel.': 'telefone',
  'etc.': "n'ibindi",
  ...UNIT_NAMES,
};
