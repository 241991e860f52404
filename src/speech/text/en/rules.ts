/**
 * Patterns only English has: ordinals written with a suffix, dates with month names, years
 * after a preposition, and abbreviations whose reading depends on what follows them.
 */
import {
  addressRules,
  degreeRule,
  identifierRule,
  letterNames,
  numberRangeRule,
  singularUnitRule,
} from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { englishCardinal, englishDigits, englishOrdinal, englishPairs, englishYear } from './numbers.ts';

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

/** Month abbreviations (with or without a full stop) and the month each names. */
const MONTH_ABBREVIATIONS: Readonly<Record<string, string>> = {
  Jan: 'January',
  Feb: 'February',
  Mar: 'March',
  Apr: 'April',
  Jun: 'June',
  Jul: 'July',
  Aug: 'August',
  Sep: 'September',
  Sept: 'September',
  Oct: 'October',
  Nov: 'November',
  Dec: 'December',
};
/** A full stop after an abbreviation mid-sentence; before a capital or at the end it ends the sentence. */
const INNER_STOP = '(?:\\.(?= [\\p{Ll}\\p{N}]| ?[-–]))?';
const MONTH_ABBREVIATION = `(${Object.keys(MONTH_ABBREVIATIONS).join('|')})${INNER_STOP}`;

/** Day abbreviations and the day each names. */
const DAY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  Mon: 'Monday',
  Tue: 'Tuesday',
  Tues: 'Tuesday',
  Wed: 'Wednesday',
  Thu: 'Thursday',
  Thur: 'Thursday',
  Thurs: 'Thursday',
  Fri: 'Friday',
  Sat: 'Saturday',
  Sun: 'Sunday',
};
const DAY = `(${Object.keys(DAY_ABBREVIATIONS).join('|')})${INNER_STOP}`;
const dayName = (abbreviation: string | undefined) => DAY_ABBREVIATIONS[abbreviation ?? ''] ?? '';

/** A clock time as written before a dash: 8am, 8 a.m., 9:30, 17:00. */
const CLOCK = '\\d{1,2}(?::[0-5]\\d)?(?: ?[ap]\\.?m\\.?)?';

/** English letter names, "zed" as in British and East African English. */
export const englishLetter = letterNames(
  'ay|bee|see|dee|ee|ef|gee|aitch|eye|jay|kay|el|em|en|oh|pee|cue|ar|ess|tee|you|vee|double you|ex|why|zed',
);

const ORDINAL_SUFFIX = '(?:st|nd|rd|th)';
const monthNumber = (name: string | undefined) => ENGLISH_MONTHS.indexOf(name ?? '') + 1;
const validDay = (day: number) => day >= 1 && day <= 31;

/** The British and Rwandan reading of a day-first date: "the twelfth of May twenty twenty-six". */
export function englishDate(day: number, month: number, year: number | undefined): string {
  const words = `the ${englishOrdinal(day)} of ${ENGLISH_MONTHS[month - 1] ?? englishCardinal(month)}`;
  return year === undefined ? words : `${words} ${englishYear(year)}`;
}

export const englishRules: readonly NormalizationRule[] = [
  // Addresses first: their dots and digits are not sentence ends or numbers.
  ...addressRules({
    at: 'at',
    dot: 'dot',
    slash: 'slash',
    underscore: 'underscore',
    dash: 'dash',
    www: 'double you double you double you',
    letter: englishLetter,
    cardinal: englishCardinal,
  }),
  // "25°C", "98.6 °F": the scale named, as a weather or health report says it.
  degreeRule({ one: 'degree', many: 'degrees', C: 'Celsius', F: 'Fahrenheit' }),
  {
    // "24/7": round the clock, said "twenty-four seven".
    name: 'round-the-clock',
    pattern: /(?<![\p{N}/])24\/7(?![\p{N}/])/gu,
    replace: () => 'twenty-four seven',
  },
  {
    // "Mon-Fri", "Mon – Sat": a range of days.
    name: 'day-range',
    pattern: new RegExp(`(?<![\\p{L}])${DAY} ?[-–] ?${DAY}(?![\\p{L}])`, 'gu'),
    replace: (m) => `${dayName(m[1])} to ${dayName(m[2])}`,
  },
  {
    // A day before a date ("Tue 3 Nov", "Sat, 5 December"), or one no English word is written
    // like (Mon, Tues, Thurs, Fri): Wed, Sat and Sun are words too, so alone they stay words.
    name: 'day-abbreviation',
    pattern: new RegExp(
      `(?<![\\p{L}])(?:${DAY}(?=,? \\d)|(Mon|Tues?|Thu|Thurs?|Fri)${INNER_STOP}(?![\\p{L}]))`,
      'gu',
    ),
    replace: (m) => dayName(m[1] ?? m[2]),
  },
  {
    // "8am-5pm", "9:00–17:00": a range of clock times; each is read by the time reading.
    name: 'time-range',
    pattern: new RegExp(`(?<![\\p{N}:.])(${CLOCK}) ?[-–] ?(${CLOCK})(?![\\p{L}\\p{N}:])`, 'giu'),
    // Two bare numbers are a number range, read by the number-range rule.
    replace: (m) => (/[:apAP]/.test(`${m[1]}${m[2]}`) ? `${m[1]} to ${m[2]}` : m[0]),
  },
  {
    // "$20-$30", "€5–€10": a range of amounts, each read by the money reading.
    name: 'money-range',
    pattern: /(?<![\p{L}\p{N}])((?:US\$|\$|€)\d(?:[\d,.]*\d)?) ?[-–] ?(?=(?:US\$|\$|€)\d)/gu,
    replace: (m) => `${m[1]} to `,
  },
  {
    // A month abbreviation next to a day or a year ("3 Nov", "Nov. 3", "Sept 2026") is the month.
    name: 'month-abbreviation',
    pattern: new RegExp(
      `(?<=\\d(?:st|nd|rd|th)?(?: of)? )${MONTH_ABBREVIATION}(?![\\p{L}])|(?<![\\p{L}])${MONTH_ABBREVIATION}(?= \\d)`,
      'gu',
    ),
    replace: (m) => MONTH_ABBREVIATIONS[m[1] ?? m[2] ?? ''] ?? m[0],
  },
  // Numbers that name rather than count: an extension digit by digit, as phone digits are read;
  // a flight (airline code spelled) and a post-office box the way years are said ("four oh one").
  identifierRule({
    name: 'extension',
    keyword: '[Ee]xtension|[Ee]xt\\.?|EXT\\.?|x(?=\\d)',
    say: () => 'extension',
    read: englishDigits,
  }),
  identifierRule({
    name: 'flight-number',
    keyword: '[Ff]light',
    say: (keyword) => keyword,
    read: englishPairs,
    letter: englishLetter,
  }),
  identifierRule({
    name: 'post-office-box',
    keyword: 'P\\.? ?O\\.? Box|[Pp]ost [Oo]ffice [Bb]ox',
    say: (keyword) => (/^post/i.test(keyword) ? keyword : 'pee oh box'),
    read: englishPairs,
  }),
  {
    name: 'post-office-box-alone',
    pattern: /(?<![\p{L}])P\.? ?O\.? Box(?![\p{L}])/gu,
    replace: () => 'pee oh box',
  },
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
    // "St." or "St" before a name is Saint (St. Peter, St Mary's); elsewhere "St." is Street,
    // from the abbreviations, and so is "St" after a name (Main St).
    name: 'saint',
    pattern: /(?<![\p{L}])St\.?(?= \p{Lu})/gu,
    replace: () => 'Saint',
  },
  {
    // After a name, a bare St, Ave or Rd is the street's kind (Main St, Kimihurura Ave).
    name: 'street',
    pattern: /(?<=\p{Lu}\p{Ll}* )(St|Ave|Rd)(?![\p{L}])/gu,
    replace: (m) => ({ St: 'Street', Ave: 'Avenue', Rd: 'Road' })[m[1] as 'St' | 'Ave' | 'Rd'],
  },
  singularUnitRule({
    km: 'one kilometre',
    kg: 'one kilogram',
    cm: 'one centimetre',
    mm: 'one millimetre',
    'km/h': 'one kilometre per hour',
  }),
];
