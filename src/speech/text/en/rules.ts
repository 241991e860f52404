/**
 * Patterns only English has: ordinals written with a suffix, dates with month names, years
 * after a preposition, and abbreviations whose reading depends on what follows them.
 */
import { numberRangeRule, singularUnitRule } from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { englishCardinal, englishOrdinal, englishYear } from './numbers.ts';

/** English month names, January first. */
export const ENGLISH_MONTHS: readonly string[] = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const MONTH = `(${ENGLISH_MONTHS.join('|')})`;
const ORDINAL_SUFFIX = '(?:st|nd|rd|th)';
const monthNumber = (name: string | undefined) => ENGLISH_MONTHS.indexOf(name ?? '') + 1;
const validDay = (day: number) => day >= 1 && day <= 31;

/** The British and Rwandan reading of a day-first date: "the twelfth of May twenty twenty-six". */
export function englishDate(day: number, month: number, year: number | undefined): string {
  const words = `the ${englishOrdinal(day)} of ${ENGLISH_MONTHS[month - 1] ?? englishCardinal(month)}`;
  return year === undefined ? words : `${words} ${englishYear(year)}`;
}

export const englishRules: readonly NormalizationRule[] = [
  {
    name: 'date-day-month',
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}])(?:([Tt]he) )?(\\d{1,2})${ORDINAL_SUFFIX}?(?: of)? ${MONTH}(?:,? (\\d{4}))?(?![\\p{L}\\p{N}])`,
      'gu',
    ),
    replace: (m) => {
      // A written "the" is kept as written; the reading brings its own.
      const day = Number(m[2]);
      const year = m[4] === undefined ? undefined : Number(m[4]);
      if (!validDay(day)) return m[0];
      const words = englishDate(day, monthNumber(m[3]), year);
      return m[1] === 'The' ? `T${words.slice(1)}` : words;
    },
  },
  {
    name: 'date-month-day',
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}])${MONTH} (\\d{1,2})${ORDINAL_SUFFIX}?(?:(,?) (\\d{4}))?(?![\\p{L}\\p{N}])`,
      'gu',
    ),
    replace: (m) => {
      const day = Number(m[2]);
      if (!validDay(day)) return m[0];
      const year = m[4] === undefined ? '' : `${m[3]} ${englishYear(Number(m[4]))}`;
      return `${m[1]} ${englishOrdinal(day)}${year}`;
    },
  },
  numberRangeRule('to', englishYear),
  {
    name: 'ordinal',
    pattern: /(?<![\p{L}\p{N}.,])(\d{1,9})(?:st|nd|rd|th)(?![\p{L}\p{N}])/gu,
    replace: (m) => englishOrdinal(Number(m[1])),
  },
  {
    // Years are said in pairs of digits ("in nineteen ninety-four"), other numbers are not.
    name: 'year-after-preposition',
    pattern:
      /(?<![\p{L}])((?:[Ii]n|[Ss]ince|[Ff]rom|[Uu]ntil|[Bb]y|[Bb]efore|[Aa]fter|[Yy]ear) )(1[1-9]\d\d|20\d\d)(?![\p{N}]|[.,]\p{N})/gu,
    replace: (m) => `${m[1]}${englishYear(Number(m[2]))}`,
  },
  {
    // "No." is "number" only before a number; alone it is the word "no" ending a sentence.
    name: 'number-sign',
    pattern: /(?<![\p{L}])No\.(?= ?\d)/gu,
    replace: () => 'number',
  },
  {
    // "St." before a name is Saint (St. Peter); elsewhere it is Street, from the abbreviations.
    name: 'saint',
    pattern: /(?<![\p{L}])St\.(?= \p{Lu})/gu,
    replace: () => 'Saint',
  },
  singularUnitRule({
    km: 'one kilometre',
    kg: 'one kilogram',
    cm: 'one centimetre',
    mm: 'one millimetre',
    'km/h': 'one kilometre per hour',
  }),
];
