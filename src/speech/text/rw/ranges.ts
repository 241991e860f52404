/**
 * Ranges written with a hyphen or a dash between two clock times, weekdays, dates, years or
 * amounts, read "kuva ... kugeza ..." (from ... until ...), the form of Kinyarwanda prose and
 * notices: "kuva saa mbiri za mu gitondo kugeza saa kumi n'imwe z'umugoroba", "kuva ku wa mbere
 * kugeza ku wa gatanu", "kuva tariki ya gatanu kugeza ku ya cumi gicurasi". Choices and sources
 * in README.md.
 */
import { CURRENCY, CURRENCY_CODES } from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { AMOUNT, currencyNoun, rangeWords, writtenAmount } from './amounts.ts';
import { dateWords, dayOfMonth, MONTH_NAMES, monthNumber, yearPhrase } from './dates.ts';
import type { Agreement } from './numbers.ts';
import { timeWords } from './time.ts';

// A dash between the two ends, never across a line break (a list's lines are apart).
const DASH = String.raw`[^\S\n]*[-–—][^\S\n]*`;
// "kuva" already written before a range is said once.
const KUVA = String.raw`(?:\b[Kk]uva\s+)?`;

/** "kuva" with the capital the range's first letter had, at the start of a sentence. */
function kuva(written: string): string {
  return /^\p{Lu}/u.test(written) ? 'Kuva' : 'kuva';
}

const CLOCK = String.raw`([01]?\d|2[0-3])(?::([0-5]\d)|h([0-5]\d)?)`;

const timeRange: NormalizationRule = {
  name: 'range-time',
  // "08:00-17:00", "saa 8:00 - saa 17:00", "8h-17h30".
  pattern: new RegExp(
    String.raw`(?<![\p{L}\p{N}:.,])${KUVA}(?:[Ss]aa\s+)?${CLOCK}${DASH}(?:[Ss]aa\s+)?${CLOCK}(?![\p{L}\p{N}]|:\d)`,
    'gu',
  ),
  replace(match) {
    const [whole, h1 = '', m1, mh1, h2 = '', m2, mh2] = match;
    const from = timeWords(Number(h1), Number(m1 ?? mh1 ?? 0));
    const to = timeWords(Number(h2), Number(m2 ?? mh2 ?? 0));
    return `${kuva(whole)} ${from} kugeza ${to}`;
  },
};

// Weekdays as CLDR rw and knowbee/rwa-time write them ("Kuwa mbere", "Ku cyumweru"), and as the
// orthography of 2014 does ("ku wa mbere").
const WEEKDAY = String.raw`ku\s?wa\s+(?:mbere|kabiri|gatatu|kane|gatanu|gatandatu)|ku\s+cyumweru`;

const weekdayRange: NormalizationRule = {
  name: 'range-weekday',
  pattern: new RegExp(String.raw`\b${KUVA}(${WEEKDAY})${DASH}(${WEEKDAY})\b`, 'giu'),
  replace(match) {
    const [whole, from = '', to = ''] = match;
    const day = (written: string) => written.toLowerCase().replace(/\s+/g, ' ');
    return `${kuva(whole)} ${day(from)} kugeza ${day(to)}`;
  },
};

const YEAR = String.raw`\d{4}`;

const dayRange: NormalizationRule = {
  name: 'range-days-of-month',
  // "5-10 Gicurasi 2026", "tariki ya 5-10 Gicurasi": the month and year are said once, after.
  pattern: new RegExp(
    String.raw`\b${KUVA}(?:(i?tariki)\s+(?:ya\s+)?)?(\d{1,2})${DASH}(\d{1,2})\s+(${MONTH_NAMES})\b(?:,?\s+(${YEAR})\b)?`,
    'giu',
  ),
  replace(match) {
    const [whole, lead, from = '', to = '', monthName = '', year] = match;
    const month = monthNumber(monthName);
    if (month === undefined || Number(from) >= Number(to)) return whole;
    const end = dateWords(Number(to), month, year === undefined ? undefined : Number(year), 'ku ya');
    const start = (lead ?? 'tariki').toLowerCase();
    return `${kuva(whole)} ${start} ya ${dayOfMonth(Number(from))} kugeza ${end}`;
  },
};

const BACKSLASH = '\\';

/**
 * A date in full, "12 Gicurasi 2026", "5 Gicurasi" (the year said at the end of the range) or
 * "12/05/2026", as six groups starting at group number `first` (the separator is matched again
 * by number).
 */
const datePattern = (first: number) =>
  String.raw`(\d{1,2})(?:\s+(${MONTH_NAMES})(?:\s+(${YEAR}))?|([./-])(\d{1,2})${BACKSLASH}${first + 3}(${YEAR}))`;

function datePhrase(
  day: string,
  monthName?: string,
  year?: string,
  numericMonth?: string,
): string | undefined {
  const month = numericMonth === undefined ? monthNumber(monthName ?? '') : Number(numericMonth);
  if (month === undefined || month < 1 || month > 12) return undefined;
  return dateWords(Number(day), month, year === undefined ? undefined : Number(year));
}

const dateRange: NormalizationRule = {
  name: 'range-dates',
  pattern: new RegExp(
    String.raw`(?<![\p{L}\p{N}.,/-])${KUVA}${datePattern(1)}${DASH}${datePattern(7)}\b(?![./-]\d)`,
    'giu',
  ),
  replace(match) {
    const [whole, d1 = '', month1, year1, , n1, y1, d2 = '', month2, year2, , n2, y2] = match;
    const from = datePhrase(d1, month1, year1 ?? y1, n1);
    const to = datePhrase(d2, month2, year2 ?? y2, n2);
    return from === undefined || to === undefined ? whole : `${kuva(whole)} ${from} kugeza ${to}`;
  },
};

const yearRange: NormalizationRule = {
  name: 'range-years',
  // "1994-2000", "mu 1959-1962": "kuva mu mwaka w'... kugeza mu mwaka w'...".
  pattern:
    /(?<![\p{L}\p{N}.,/-])(?:\b[Mm]u\s+)?(1[1-9]\d\d|20\d\d)\s*[-–—]\s*(1[1-9]\d\d|20\d\d)(?![\p{N}]|[.,/-]\d)/gu,
  replace(match) {
    const [whole, from = '', to = ''] = match;
    if (Number(from) >= Number(to)) return whole;
    const inYear = (year: string) => `mu ${yearPhrase(Number(year)).slice(1)}`;
    return `${kuva(whole)} ${inYear(from)} kugeza ${inYear(to)}`;
  },
};

/** Two amounts as written, in words agreeing with `agreement`, when the first is the smaller. */
export function amountRange(from: string, to: string, agreement: Agreement = 'counting'): string | undefined {
  const [a, b] = [writtenAmount(from, agreement), writtenAmount(to, agreement)];
  if (a === undefined || b === undefined || a.value >= b.value) return undefined;
  return rangeWords(a.words, b.words);
}

const moneyRange: NormalizationRule = {
  name: 'range-money',
  // "5000-10000 Frw", "Frw 5.000 - 10.000", "$5-10": the currency noun first, as for one amount.
  pattern: new RegExp(
    String.raw`(?<![\p{L}\p{N}.,])(?:(${CURRENCY})[ \u00a0]?(${AMOUNT})${DASH}(${AMOUNT})|(${AMOUNT})${DASH}(${AMOUNT})[ \u00a0]?(${CURRENCY}))(?![\p{L}\p{N}])`,
    'gu',
  ),
  replace(match) {
    const [whole, before, a1, b1, a2, b2, after] = match;
    const code = CURRENCY_CODES[before ?? after ?? ''];
    const range = code && amountRange(a1 ?? a2 ?? '', b1 ?? b2 ?? '', 'class6');
    return code && range ? `${currencyNoun(code)} ${range}` : whole;
  },
};

const percentRange: NormalizationRule = {
  name: 'range-percent',
  // "10-15%", "10% - 15%".
  pattern: new RegExp(String.raw`(?<![\p{L}\p{N}.,-])(${AMOUNT})%?${DASH}(${AMOUNT})[ \u00a0]?%`, 'gu'),
  replace(match) {
    const [whole, from = '', to = ''] = match;
    const range = amountRange(from, to);
    return range === undefined ? whole : `${range} ku ijana`;
  },
};

const numberRange: NormalizationRule = {
  name: 'range-numbers',
  // "5-10", "1.000-2.000". Not a score (2-1: the first is not the smaller), not a phone number or
  // a code (leading zero), not part of a longer run (12-05-2026).
  pattern: new RegExp(
    String.raw`(?<![\p{L}\p{N}.,/:+-])(${AMOUNT})${DASH}(${AMOUNT})(?![\p{L}\p{N}]|[.,/:-]\p{N})`,
    'gu',
  ),
  replace(match) {
    const [whole, from = '', to = ''] = match;
    return amountRange(from, to) ?? whole;
  },
};

/** Range rules that must run before the rules reading one date or one time. */
export const DATE_AND_TIME_RANGES: readonly NormalizationRule[] = [
  dayRange,
  dateRange,
  timeRange,
  weekdayRange,
  yearRange,
];

/** Ranges of money and percentages, before a noun could take their first number. */
export const MONEY_AND_PERCENT_RANGES: readonly NormalizationRule[] = [moneyRange, percentRange];

/** Ranges of bare numbers, after nouns and units have read theirs with agreement. */
export const AMOUNT_RANGES: readonly NormalizationRule[] = [numberRange];
