/**
 * Kinyarwanda numbers in words: cardinals in counting form or agreeing with a noun class,
 * ordinals, and digits read one by one.
 *
 * Sources (most forms appear in two or more of them):
 * - Harvard ELIAS Kinyarwanda course, "Grammar: Cardinal and ordinal numbers", "Grammar: Fundamental
 *   mathematics", "Summary: Counting, numbering, and telling time", "Unit 3: Telling time in Kinyarwanda"
 *   (elias.unix.fas.harvard.edu): counting forms rimwe..icumi, 8-10 invariable, the class 9/10 series
 *   ebyiri, eshatu, enye, eshanu, esheshatu; ordinals with the connective (ukwezi kwa mbere, kwa kane);
 *   "zero"; arithmetic terms kongeraho (add, used here for the "+" of phone numbers) and gukuramo
 *   (subtract; its form "ukuyemo", "minus", is used for negative numbers).
 * - French Wikibooks, "Enseignement du kinyarwanda – Nombres": 11 cumi na rimwe, 20 makumyabiri, tens
 *   mirongo itatu..mirongo icyenda, hundreds ijana, magana abiri..magana inani, magana cyenda, igihumbi,
 *   ibihumbi bibiri, ibihumbi ijana, miliyoni, miliyoni ebyiri; the agreement prefix table by class.
 * - languagesandnumbers.com, "How to count in Kinyarwanda": 19 cumi n'icyenda, mirongo inani, the rule
 *   that tens take the i- prefix and hundreds the a- prefix.
 * - NVIDIA NeMo-text-processing, Kinyarwanda grammars by Digital Umuganda (text_normalization/rw/data):
 *   hundreds.tsv, thousands.tsv (ibihumbi umunani), digits_for_thousands.tsv (kimwe, bibiri...),
 *   millions.tsv and digits_millions_trillions.tsv (imwe, ebyiri... zirindwi), time/hours.tsv and
 *   time/minutes.tsv (saa munani; n'iminota cumi n'itanu, class 4 agreement).
 * - gusoma (npm, knowbee/gusoma README): 1195 "igihumbi n'ijana na mirongo icyenda na gatanu",
 *   1110 "igihumbi n'ijana n'icumi", 116 "ijana na cumi na gatandatu", 18 "cumi n'umunani",
 *   43,000,000 "miliyoni mirongo ine n'eshatu" (the multiplier agrees with miliyoni, class 9/10),
 *   6,500,000,000 "miliyari esheshatu na miliyoni magana atanu".
 * - Rwandan Penal Code text (Official Gazette): "miliyoni imwe (1.000.000 FRW) ... miliyoni ebyiri";
 *   Kinyarwanda Wikipedia, "Rwanda": "ibiyaga makumyabiri na bitatu" (the units digit agrees with the
 *   counted noun, here class 8).
 * - CLDR locale data for rw: month names Mutarama..Ukuboza; the decimal mark, which CLDR and Rwandan
 *   texts write both ways (the choice is in README.md).
 * - Real usage in Rwandan media (yegob.rw, kigalitoday.com, therwandan.com, inyarwanda.com) and the
 *   Rwanda Education Board's Kinyarwanda textbooks (elearning.reb.rw: "ibirometero"):
 *   "saa kumi n'ebyiri n'igice z'umugoroba (18h30)", "saa sita z'amanywa", "saa tanu z'amanywa",
 *   "tariki 09 Gicurasi 2020", "mu mwaka w'1994", "ibiro 130", "ikiro 1", "Dogiteri".
 *
 * Where sources disagree the choice is written next to the table it affects and in README.md, with
 * the second pass's sources (decimals, units, fractions, ranges). No published source was found for
 * letter names for acronyms (letters.ts), a decision to review with native speakers.
 */

/**
 * Which agreement the last units digit takes. Kinyarwanda numerals 1-7 agree with the noun they count
 * (8 umunani, 9 icyenda and 10 icumi do not); `counting` is the bare form used when counting aloud.
 * Each row is a plural class with its singular's form for 1 (French Wikibooks' agreement table;
 * Kimenyi, "A Relational Grammar of Kinyarwanda", 1980, and Overdulve, "Apprendre la langue
 * rwanda", 1975, for the classes: the numeral takes the class's concord prefix, ba-, i-, a-, bi-,
 * e-/zi-, tu-/du- (Dahl's law before a voiceless consonant), ha-).
 * - `counting`: rimwe, kabiri, gatatu... (no noun)
 * - `class2`: umu-/aba- people: umwe, babiri, batatu...
 * - `class4`: umu-/imi- nouns such as iminota (minutes): umwe, ibiri, itatu...
 * - `class6`: (i)ri-/ama- nouns such as amafaranga (francs): rimwe, abiri, atatu...
 * - `class8`: iki-/ibi- nouns such as ibihumbi (thousands), ibiro (kilograms): kimwe, bibiri, bitatu...
 * - `class10`: in-/in- nouns such as miliyoni, itariki, imodoka: imwe, ebyiri, eshatu...
 * - `class11`: uru- nouns (plural in-, class 10): rumwe, ebyiri...
 * - `class13`: aka-/utu- nouns: kamwe, tubiri, dutatu...
 * - `class14`, `class15`: ubu-, uku- nouns (plural ama-, class 6): bumwe, kumwe, then abiri...
 * - `class16`: aha- (places): hamwe, habiri, hatatu...
 */
export type Agreement =
  | 'counting'
  | 'class2'
  | 'class4'
  | 'class6'
  | 'class8'
  | 'class10'
  | 'class11'
  | 'class13'
  | 'class14'
  | 'class15'
  | 'class16';

// Index 0 is unused: a zero units digit is never spoken inside a number.
const UNITS: Readonly<Record<Agreement, readonly string[]>> = {
  counting: [
    '',
    'rimwe',
    'kabiri',
    'gatatu',
    'kane',
    'gatanu',
    'gatandatu',
    'karindwi',
    'umunani',
    'icyenda',
  ],
  class4: ['', 'umwe', 'ibiri', 'itatu', 'ine', 'itanu', 'itandatu', 'irindwi', 'umunani', 'icyenda'],
  // One franc is "ifaranga rimwe" (class 5, the singular of class 6), so 1 is rimwe here too.
  class6: ['', 'rimwe', 'abiri', 'atatu', 'ane', 'atanu', 'atandatu', 'arindwi', 'umunani', 'icyenda'],
  class8: ['', 'kimwe', 'bibiri', 'bitatu', 'bine', 'bitanu', 'bitandatu', 'birindwi', 'umunani', 'icyenda'],
  class10: ['', 'imwe', 'ebyiri', 'eshatu', 'enye', 'eshanu', 'esheshatu', 'zirindwi', 'umunani', 'icyenda'],
  class2: ['', 'umwe', 'babiri', 'batatu', 'bane', 'batanu', 'batandatu', 'barindwi', 'umunani', 'icyenda'],
  class11: ['', 'rumwe', 'ebyiri', 'eshatu', 'enye', 'eshanu', 'esheshatu', 'zirindwi', 'umunani', 'icyenda'],
  class13: ['', 'kamwe', 'tubiri', 'dutatu', 'tune', 'dutanu', 'dutandatu', 'turindwi', 'umunani', 'icyenda'],
  class14: ['', 'bumwe', 'abiri', 'atatu', 'ane', 'atanu', 'atandatu', 'arindwi', 'umunani', 'icyenda'],
  class15: ['', 'kumwe', 'abiri', 'atatu', 'ane', 'atanu', 'atandatu', 'arindwi', 'umunani', 'icyenda'],
  class16: ['', 'hamwe', 'habiri', 'hatatu', 'hane', 'hatanu', 'hatandatu', 'harindwi', 'umunani', 'icyenda'],
};

// Tens agree with mirongo (class 4, i- prefix): mirongo inani, mirongo icyenda. 20 is fused.
const TENS = [
  '',
  'icumi',
  'makumyabiri',
  'mirongo itatu',
  'mirongo ine',
  'mirongo itanu',
  'mirongo itandatu',
  'mirongo irindwi',
  'mirongo inani',
  'mirongo icyenda',
];

// Hundreds agree with magana (class 6, a- prefix). 800 and 900 follow Wikibooks, NeMo (Digital
// Umuganda) and KinyaTTS (magana inani, magana cyenda); gusoma's "magana umunani/icyenda" is the minority.
const HUNDREDS = [
  '',
  'ijana',
  'magana abiri',
  'magana atatu',
  'magana ane',
  'magana atanu',
  'magana atandatu',
  'magana arindwi',
  'magana inani',
  'magana cyenda',
];

const DIGITS = [
  'zeru',
  'rimwe',
  'kabiri',
  'gatatu',
  'kane',
  'gatanu',
  'gatandatu',
  'karindwi',
  'umunani',
  'icyenda',
];

const VOWEL_START = /^[aeiou]/;

/**
 * Joins a word to what precedes it with the linker `na`, elided to `n'` before a vowel as Kinyarwanda
 * writes it (n'ijana, n'icyenda). Any connective ending in -a (wa, ya, kwa...) elides the same way, so
 * `link('wa', 'ijana')` gives "w'ijana".
 */
export function link(connective: string, next: string): string {
  if (VOWEL_START.test(next) && connective.endsWith('a')) return `${connective.slice(0, -1)}'${next}`;
  return `${connective} ${next}`;
}

/** Joins the spoken parts of one number with `na` / `n'`. */
function joinParts(parts: readonly string[]): string {
  let out = '';
  for (const part of parts) out = out === '' ? part : `${out} ${link('na', part)}`;
  return out;
}

/** 1..99 as parts; only the units digit takes the agreement. */
function belowHundred(n: number, agreement: Agreement): string[] {
  const tens = Math.floor(n / 10);
  const units = n % 10;
  const unitWord = UNITS[agreement][units] ?? '';
  if (tens === 0) return [unitWord];
  if (units === 0) return [TENS[tens] ?? ''];
  // 11-19: "cumi na rimwe"; icumi loses its initial vowel when units follow.
  const tensWord = tens === 1 ? 'cumi' : (TENS[tens] ?? '');
  return [tensWord, unitWord];
}

/** 1..999 as parts. */
function belowThousand(n: number, agreement: Agreement): string[] {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (hundreds > 0) parts.push(HUNDREDS[hundreds] ?? '');
  if (rest > 0) parts.push(...belowHundred(rest, agreement));
  return parts;
}

interface Scale {
  readonly value: number;
  readonly one: string;
  readonly many: string;
  /** The multiplier agrees with the noun of the scale: ibihumbi (class 8), miliyoni/miliyari (class 9/10). */
  readonly agreement: Agreement;
}

// miliyari (10^9) as in gusoma's README; miriyari is a rarer spelling of the same word.
const SCALES: readonly Scale[] = [
  { value: 1e9, one: 'miliyari imwe', many: 'miliyari', agreement: 'class10' },
  { value: 1e6, one: 'miliyoni imwe', many: 'miliyoni', agreement: 'class10' },
  { value: 1e3, one: 'igihumbi', many: 'ibihumbi', agreement: 'class8' },
];

const LARGEST = 1e12;

/**
 * A whole number in words, in counting form (`cardinal(1195)` gives "igihumbi n'ijana na mirongo
 * icyenda na gatanu") or with its last units digit agreeing with a noun class
 * (`cardinal(25, 'class6')` gives "makumyabiri n'atanu", as in "amafaranga makumyabiri n'atanu").
 * Covers 0 to 999,999,999,999; larger or non-integer values are read digit by digit, negative ones
 * after "ukuyemo" (minus, the word Kinyarwanda arithmetic uses for subtraction).
 */
export function cardinal(n: number, agreement: Agreement = 'counting'): string {
  if (!Number.isSafeInteger(n) || Math.abs(n) >= LARGEST) return readDigits(String(n));
  if (n < 0) return `ukuyemo ${cardinal(-n, agreement)}`;
  if (n === 0) return 'zeru';
  const parts: string[] = [];
  let rest = n;
  for (const scale of SCALES) {
    const count = Math.floor(rest / scale.value);
    rest %= scale.value;
    if (count === 0) continue;
    parts.push(count === 1 ? scale.one : `${scale.many} ${joinParts(belowThousand(count, scale.agreement))}`);
  }
  if (rest > 0) parts.push(...belowThousand(rest, agreement));
  return joinParts(parts);
}

/** The name of one digit 0-9 as read in phone numbers and after the decimal comma ("zeru", "rimwe"...). */
export function digitWord(digit: string): string {
  return DIGITS[Number(digit)] ?? digit;
}

/** Every digit of `text` read one by one, other characters dropped: "07" gives "zeru karindwi". */
export function readDigits(text: string): string {
  return [...text]
    .filter((c) => c >= '0' && c <= '9')
    .map(digitWord)
    .join(' ');
}

// Ordinals 2-10 are the counting forms; 8-10 drop the initial vowel (ukwezi kwa munani, kwa cumi).
const ORDINALS = [
  '',
  'mbere',
  'kabiri',
  'gatatu',
  'kane',
  'gatanu',
  'gatandatu',
  'karindwi',
  'munani',
  'cyenda',
  'cumi',
];

/**
 * An ordinal without its connective: 1 "mbere", 2 "kabiri", 8 "munani", 10 "cumi"; from 11 on the
 * cardinal, with its units digit in `agreement` (counting form by default: "cumi na rimwe").
 * Kinyarwanda writes the connective that agrees with the noun before it (umwaka wa, ukwezi kwa,
 * itariki ya), so the caller keeps it and joins with `link`.
 */
export function ordinal(n: number, agreement: Agreement = 'counting'): string {
  const small = Number.isInteger(n) && n > 0 ? ORDINALS[n] : undefined;
  return small ?? cardinal(n, agreement);
}
