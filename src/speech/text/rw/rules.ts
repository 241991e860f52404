import type { NormalizationRule } from '../verbalizer.ts';
import { ADDRESS_RULES } from './addresses.ts';
import { decimalWords, phoneWords } from './amounts.ts';
import { dateWords, dayOfMonth, MONTH_NAMES, monthNumber, yearPhrase } from './dates.ts';
import { fraction } from './fractions.ts';
import { nounAgreement } from './noun-classes.ts';
import { cardinal, link, ordinal } from './numbers.ts';
import { AMOUNT_RANGES, amountRange, DATE_AND_TIME_RANGES, MONEY_AND_PERCENT_RANGES } from './ranges.ts';
import { timeWords } from './time.ts';
import { unitAfterNumber } from './units.ts';

// A whole number as written in Rwanda: grouped by dots, spaces or commas (26,338 km on the Kinyarwanda
// Wikipedia), or plain digits.
const WHOLE = String.raw`\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?!\d)|\d+`;

function wholeNumber(text: string): number {
  return Number(text.replace(/\D/g, ''));
}

// What may introduce a day of the month: "tariki (ya)", "itariki (ya)", or "(ku) wa" (ku wa 1
// Gicurasi, on the first of May).
const DAY_LEAD = String.raw`(?:(i?tariki)\s+(?:ya\s+)?|((?:ku\s+)?wa)\s+)`;

/** The words that introduce the day, as written (Tariki ya, ku wa...), or "tariki ya" when none were. */
function leadWords(tariki: string | undefined, wa: string | undefined): string {
  if (wa !== undefined) return wa.replace(/\s+/g, ' ');
  return `${tariki ?? 'tariki'} ya`;
}

/** A two-digit year is taken as 20xx, as Rwandan forms write 12/05/26. */
function fullYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

const writtenDate: NormalizationRule = {
  name: 'date-written',
  // "12 Gicurasi 2026", "tariki ya 12 Gicurasi", "Tariki 9 Gicurasi 2020".
  pattern: new RegExp(String.raw`\b${DAY_LEAD}?(\d{1,2})\s+(${MONTH_NAMES})\b(?:,?\s+(\d{4})\b)?`, 'giu'),
  replace(match) {
    const [, tariki, wa, day = '', monthName = '', year] = match;
    const month = monthNumber(monthName) ?? 0;
    return dateWords(
      Number(day),
      month,
      year === undefined ? undefined : Number(year),
      leadWords(tariki, wa),
    );
  },
};

const tarikiNumericDate: NormalizationRule = {
  name: 'date-tariki-numeric',
  // "tariki ya 12/05/2026", "ku wa 01/05/2026": the shared date reading would repeat "tariki ya".
  pattern: new RegExp(String.raw`\b${DAY_LEAD}(\d{1,2})([./-])(\d{1,2})\4(\d{4}|\d{2})\b`, 'giu'),
  replace(match) {
    const [whole, tariki, wa, day = '', , month = '', year = ''] = match;
    const m = Number(month);
    if (m < 1 || m > 12) return whole;
    return dateWords(Number(day), m, fullYear(year), leadWords(tariki, wa));
  },
};

const tarikiDay: NormalizationRule = {
  name: 'date-tariki-day',
  // "tariki ya 5" with no month written.
  pattern: /\b(i?tariki)\s+(?:ya\s+)?(\d{1,2})\b(?![.,:/-]?\d)/giu,
  replace(match) {
    const [, lead, day = ''] = match;
    return `${leadWords(lead, undefined)} ${dayOfMonth(Number(day))}`;
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
  // does a number after a word of no known class. A range agrees too: "abantu 10-15" is "abantu
  // kuva ku icumi kugeza kuri cumi na batanu". Never across a line break, which ends a sentence.
  pattern: new RegExp(
    String.raw`(?<![\p{L}])(\p{L}+)[^\S\n]+(${WHOLE})(?:[.,](\d+))?(?:[^\S\n]*[-–][^\S\n]*(${WHOLE}))?\b(?![.,]\d|[-–/:]\d)(?!\s*(?:%|frw\b|rwf\b|usd\b|eur\b|gbp\b|[$€£]))`,
    'giu',
  ),
  replace(match) {
    const [whole, noun = '', amount = '', fraction, until] = match;
    const agreement = nounAgreement(noun);
    const plural = agreement === undefined || agreement.singular ? undefined : agreement.agreement;
    if (until !== undefined) {
      const range = fraction === undefined ? amountRange(amount, until, plural) : undefined;
      return range === undefined ? whole : `${noun} ${range}`;
    }
    // "ibiro 2,5": the whole part agrees (ibiro bibiri n'igice).
    if (fraction !== undefined)
      return plural ? `${noun} ${decimalWords(wholeNumber(amount), fraction, plural)}` : whole;
    const n = wholeNumber(amount);
    if (agreement === undefined || (agreement.singular && n !== 1)) return whole;
    return `${noun} ${cardinal(n, agreement.agreement)}`;
  },
};

const internationalPhone: NormalizationRule = {
  name: 'phone-international',
  // "+1 202 555 0100", "+33 1 23 45 67 89": "+" and the country code, then the groups as written,
  // digit by digit. Rwandan numbers (+250) are grouped by the shared phone reading.
  pattern:
    /(?<![\p{L}\p{N}+])\+(?!250)\d{1,3}(?:[ \u00a0.-]\(?\d{1,4}\)?){2,6}(?![\p{N}]|[ .-]\d)|(?<![\p{L}\p{N}+])\+(?!250)\d{8,15}(?!\p{N})/gu,
  replace(match) {
    const groups = match[0].split(/[ \u00a0.()-]+/).filter((group) => group !== '');
    return phoneWords(groups);
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
 * Kinyarwanda-only patterns, in the order they must be tried: addresses first (their dots and
 * digits are neither sentence ends nor numbers); phone numbers before any range;
 * ranges of dates and times before one date or time; written dates before the bare "tariki ya N";
 * years after umwaka before the general connective + ordinal; money and percent ranges before a
 * noun takes their first number; nouns and units before a bare range.
 */
export const KINYARWANDA_RULES: readonly NormalizationRule[] = [
  ...ADDRESS_RULES,
  internationalPhone,
  ...DATE_AND_TIME_RANGES,
  writtenDate,
  tarikiNumericDate,
  tarikiDay,
  timeAfterSaa,
  yearOfUmwaka,
  fraction,
  ...MONEY_AND_PERCENT_RANGES,
  nounThenAmount,
  unitAfterNumber,
  ...AMOUNT_RANGES,
  connectiveOrdinal,
  numberSign,
];
