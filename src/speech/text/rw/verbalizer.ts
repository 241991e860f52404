import type { Verbalizer } from '../verbalizer.ts';
import { decimalWords, moneyWords, percentWords, phoneWords } from './amounts.ts';
import { dateWords } from './dates.ts';
import { ABBREVIATIONS, letterName } from './letters.ts';
import { cardinal, ordinal } from './numbers.ts';
import { KINYARWANDA_RULES } from './rules.ts';
import { timeWords } from './time.ts';

/**
 * How Kinyarwanda reads what the shared normaliser finds. Output is lower-case Kinyarwanda words with
 * apostrophes for elision (n'ijana), ready for the grapheme-to-phoneme step. Sources and choices are
 * listed at the top of numbers.ts.
 */
export const kinyarwandaVerbalizer: Verbalizer = {
  language: 'rw',
  minus: 'ukuyemo',
  // CLDR rw writes "." for decimals and "," between thousands; Rwandan texts also write "1.000" and
  // "2,5": a mark before three digits groups thousands, any other is decimal (README.md).
  decimalSeparator: '.',
  groupsBeforeThreeDigits: true,
  cardinal: (n) => cardinal(n),
  decimal: decimalWords,
  percent: percentWords,
  money: moneyWords,
  phone: phoneWords,
  time: timeWords,
  date: (day, month, year) => dateWords(day, month, year),
  ordinal: (n) => ordinal(n),
  letter: letterName,
  abbreviations: ABBREVIATIONS,
  // USSD codes start with `akanyenyeri` and end with `urwego` (sources in README.md).
  symbols: { star: 'akanyenyeri', hash: 'urwego', times: 'gukuba' },
  rules: KINYARWANDA_RULES,
};
