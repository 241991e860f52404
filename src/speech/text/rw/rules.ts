import type { NormalizationRule } from '../verbalizer.ts';
import { decimalWords } from './amounts.ts';
import { dateWords, dayOfMonth, monthNumber, yearPhrase } from './dates.ts';
import { nounAgreement } from './noun-classes.ts';
import { cardinal, link, ordinal } from './numbers.ts';
import { timeWords } from './time.ts';

const MONTH_NAMES =
  'Mutarama|Gashyantare|Werurwe|Mata|Gicurasi|Gicuransi|Kamena|Nyakanga|Kanama|Nzeri|Nzeli|Ukwakira|Ugushyingo|Ukuboza';

// A whole number as written in Rwanda: grouped by dots, spaces or commas (26,338 km on the Kinyarwanda
// Wikipedia), or plain digits.
const WHOLE = String.raw`\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?!\d)|\d+`;

function wholeNumber(text: string): number {
  return Number(text.replace(/\D/g, ''));
}

/** The word that introduces the day, as written (Tariki, itariki...), or `tariki` when none was. */
function leadWord(written: string | undefined): string {
  return written ?? 'tariki';
}

/** A two-digit year is taken as 20xx, as Rwandan forms write 12/05/26. */
function fullYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

const writtenDate: NormalizationRule = {
  name: 'date-written',
  // "12 Gicurasi 2026", "tariki ya 12 Gicurasi", "Tariki 9 Gicurasi 2020".
  pattern: new RegExp(
    String.raw`\b(?:(i?tariki)\s+(?:ya\s+)?)?(\d{1,2})\s+(${MONTH_NAMES})\b(?:,?\s+(\d{4})\b)?`,
    'giu',
  ),
  replace(match) {
    const [, lead, day = '', monthName = '', year] = match;
    const month = monthNumber(monthName) ?? 0;
    return dateWords(Number(day), month, year === undefined ? undefined : Number(year), leadWord(lead));
  },
};

const tarikiNumericDate: NormalizationRule = {
  name: 'date-tariki-numeric',
  // "tariki ya 12/05/2026": the shared date reading would repeat "tariki ya".
  pattern: /\b(i?tariki)\s+(?:ya\s+)?(\d{1,2})([./-])(\d{1,2})\3(\d{4}|\d{2})\b/giu,
  replace(match) {
    const [whole, lead, day = '', , month = '', year = ''] = match;
    const m = Number(month);
    if (m < 1 || m > 12) return whole;
    return dateWords(Number(day), m, fullYear(year), leadWord(lead));
  },
};

const tarikiDay: NormalizationRule = {
  name: 'date-tariki-day',
  // "tariki ya 5" with no month written.
  pattern: /\b(i?tariki)\s+(?:ya\s+)?(\d{1,2})\b(?![.,:/-]?\d)/giu,
  replace(match) {
    const [, lead, day = ''] = match;
    return `${leadWord(lead)} ya ${dayOfMonth(Number(day))}`;
  },
};

const timeAfterSaa: NormalizationRule = {
  name: 'time-saa',
  // "saa 14:30": the time already says "saa". The digits are taken as the 24-hour clock, as the shared
  // time reading does; "saa 2:00" meaning the Rwandan second hour (08:00) cannot be told apart.
  pattern: /\b([Ss]aa)\s+([01]?\d|2[0-3])(?::([0-5]\d)|h([0-5]\d)?)(?![\p{L}\p{N}])/gu,
  replace(match) {
    const [, saa = 'saa', hours = '', minutes, minutesAfterH] = match;
    return timeWords(Number(hours), Number(minutes ?? minutesAfterH ?? 0)).replace(/^saa/, saa);
  },
};

const yearOfUmwaka: NormalizationRule = {
  name: 'year-umwaka',
  // "mu mwaka wa 2026", "mu mwaka w'1994": a four-digit number after umwaka is a year (cardinal),
  // a short one an ordinal ("umwaka wa 3" is the third year of school).
  pattern: /\b(u?mwaka)\s+w(?:a\s+|['’]\s*)(\d{4})\b(?![.,:/-]?\d)/giu,
  replace(match) {
    const [, noun = '', year = ''] = match;
    return yearPhrase(Number(year)).replace('umwaka', noun);
  },
};

const connectiveOrdinal: NormalizationRule = {
  name: 'ordinal-connective',
  // "wa 3", "ku wa 2", "kwa 8", "icyiciro cya 1": the connective that agrees with the noun, then the
  // ordinal. Not when a unit, currency, percent or more digits follow (umushahara wa 5000 Frw), nor for
  // numbers starting with 0 (phone numbers).
  pattern:
    /\b(wa|ya|rya|cya|kwa|bwa|rwa|ka)\s+([1-9]\d{0,2})\b(?![.,:/-]?\d)(?!\s*(?:\d|%|[°º$€]|frw\b|rwf\b|usd\b|eur\b|km\b|kg\b|cm\b|h\b))/giu,
  replace(match) {
    const [, connective = '', n = ''] = match;
    return link(connective, ordinal(Number(n)));
  },
};

const nounThenAmount: NormalizationRule = {
  name: 'amount-after-noun',
  // "amafaranga 5", "abantu 3", "inzu 2": a number after a noun agrees with the noun's class
  // (amafaranga atanu, abantu batatu, inzu ebyiri). After a singular noun only 1 agrees (umuntu
  // umwe); another number there is a label ("icyumba 5", room 5) and keeps its counting form, as
  // does a number after a word of no known class.
  pattern: new RegExp(
    String.raw`(?<![\p{L}])(\p{L}+)\s+(${WHOLE})\b(?![.,]\d)(?!\s*(?:%|frw\b|rwf\b|usd\b|eur\b|gbp\b|[$€£]))`,
    'giu',
  ),
  replace(match) {
    const [whole, noun = '', amount = ''] = match;
    const agreement = nounAgreement(noun);
    const n = wholeNumber(amount);
    if (agreement === undefined || (agreement.singular && n !== 1)) return whole;
    return `${noun} ${cardinal(n, agreement.agreement)}`;
  },
};

interface Unit {
  readonly one: string;
  readonly many: string;
}

// ibiro / ikiro for kilograms and ibirometero for kilometres are what Rwandan media write
// ("ibiro 130", "ikiro 1", "ibirometero by'imiyoboro"); both are class 7/8.
const UNITS: Readonly<Record<string, Unit>> = {
  km: { one: 'ikirometero kimwe', many: 'ibirometero' },
  kg: { one: 'ikiro kimwe', many: 'ibiro' },
};

const unitAfterNumber: NormalizationRule = {
  name: 'unit-after-number',
  // "5 km" is said "ibirometero bitanu": the unit moves before the number.
  pattern: new RegExp(String.raw`(?<![\d.,])(${WHOLE})(?:[.,](\d+))?\s?(km|kg)\b(?![/²])`, 'gu'),
  replace(match) {
    const [, amount = '', fraction, symbol = ''] = match;
    const unit = UNITS[symbol] ?? { one: symbol, many: symbol };
    const n = wholeNumber(amount);
    if (fraction !== undefined) return `${unit.many} ${decimalWords(n, fraction)}`;
    return n === 1 ? unit.one : `${unit.many} ${cardinal(n, 'class8')}`;
  },
};

const numberSign: NormalizationRule = {
  name: 'nomero',
  // "No 5", "n°5", "No.12": only before digits, since "no" is a common Kinyarwanda word.
  pattern: /\b[Nn](?:o\.?|[°º])\s*(?=\d)/gu,
  replace() {
    return 'nomero ';
  },
};

/**
 * Kinyarwanda-only patterns, in the order they must be tried: written dates before the bare
 * "tariki ya N", years after umwaka before the general connective + ordinal.
 */
export const KINYARWANDA_RULES: readonly NormalizationRule[] = [
  writtenDate,
  tarikiNumericDate,
  tarikiDay,
  timeAfterSaa,
  yearOfUmwaka,
  nounThenAmount,
  unitAfterNumber,
  connectiveOrdinal,
  numberSign,
];
