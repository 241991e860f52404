/**
 * How English reads numbers, money, phone numbers, times and dates. Choices (see README.md):
 * American cardinals without "and", day-first dates read the British way, 12-hour times as a
 * receptionist says them, phone digits one by one with a pause between groups.
 */
import type { CurrencyCode, Verbalizer } from '../verbalizer.ts';
import { englishCardinal, englishDecimal, englishDigits, englishOrdinal } from './numbers.ts';
import { englishDate, englishLetter, englishRules } from './rules.ts';

// Singular, plural, then the hundredth's singular and plural where the currency has one.
const CURRENCY_WORDS: Readonly<Record<CurrencyCode, readonly string[]>> = {
  RWF: ['Rwandan franc', 'Rwandan francs'],
  USD: ['dollar', 'dollars', 'cent', 'cents'],
  EUR: ['euro', 'euros', 'cent', 'cents'],
  GBP: ['pound', 'pounds', 'penny', 'pence'],
};

function englishMoney(integer: number, fractionDigits: string, currency: CurrencyCode): string {
  const [one, many, cent, cents] = CURRENCY_WORDS[currency];
  const major = `${englishCardinal(integer)} ${integer === 1 ? one : many}`;
  if (fractionDigits === '') return major;
  // Cents only for a currency that has them and an amount written to the cent.
  if (cent === undefined || fractionDigits.length > 2)
    return `${englishDecimal(integer, fractionDigits)} ${many}`;
  const hundredths = Number(fractionDigits.padEnd(2, '0'));
  if (hundredths === 0) return major;
  const minor = `${englishCardinal(hundredths)} ${hundredths === 1 ? cent : cents}`;
  return integer === 0 ? minor : `${major} and ${minor}`;
}

function englishTime(hours: number, minutes: number): string {
  if (minutes === 0 && hours === 12) return 'twelve noon';
  if (minutes === 0 && hours === 0) return 'twelve midnight';
  const hour = englishCardinal(hours % 12 || 12);
  const minute =
    minutes === 0 ? '' : minutes < 10 ? ` oh ${englishCardinal(minutes)}` : ` ${englishCardinal(minutes)}`;
  return `${hour}${minute} ${hours < 12 ? 'a m' : 'p m'}`;
}

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'Dr.': 'Doctor',
  Dr: 'Doctor',
  'Mr.': 'Mister',
  Mr: 'Mister',
  'Mrs.': 'Missus',
  Mrs: 'Missus',
  'Ms.': 'Miz',
  'Prof.': 'Professor',
  'Jr.': 'Junior',
  'Sr.': 'Senior',
  'Rev.': 'Reverend',
  'Hon.': 'Honourable',
  'Gen.': 'General',
  'Capt.': 'Captain',
  'St.': 'Street',
  'Ave.': 'Avenue',
  'Rd.': 'Road',
  Rd: 'Road',
  'Mt.': 'Mount',
  'Ltd.': 'Limited',
  Ltd: 'Limited',
  'Co.': 'Company',
  'Inc.': 'Incorporated',
  'Dept.': 'Department',
  'Tel.': 'Telephone',
  'tel.': 'telephone',
  'etc.': 'et cetera',
  'e.g.': 'for example',
  'i.e.': 'that is',
  'vs.': 'versus',
  'approx.': 'approximately',
  km: 'kilometres',
  'km/h': 'kilometres per hour',
  kg: 'kilograms',
  cm: 'centimetres',
  mm: 'millimetres',
  hrs: 'hours',
  mins: 'minutes',
  RWF: 'Rwandan francs',
  Frw: 'Rwandan francs',
  USD: 'you ess dollars',
};

/** English readings for the shared normaliser. */
export const englishVerbalizer: Verbalizer = {
  language: 'en',
  minus: 'minus',
  decimalSeparator: '.',
  cardinal: englishCardinal,
  largestAmount: Number.MAX_SAFE_INTEGER,
  decimal: englishDecimal,
  percent: (integer, fractionDigits) => `${englishDecimal(integer, fractionDigits)} percent`,
  money: englishMoney,
  phone: (groups) =>
    groups
      .map((g) => (g.startsWith('+') ? `plus ${englishDigits(g.slice(1))}` : englishDigits(g)))
      .join(', '),
  time: englishTime,
  date: englishDate,
  ordinal: englishOrdinal,
  letter: englishLetter,
  abbreviations: ABBREVIATIONS,
  // East African and British English: "star" and "hash" (not the American "pound").
  symbols: { star: 'star', hash: 'hash', times: 'times' },
  rules: englishRules,
};
