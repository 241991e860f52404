/**
 * How French reads numbers, money, phone numbers, times and dates. Choices (see README.md):
 * traditional spelling of numerals, 24-hour times ("quatorze heures trente"), phone numbers read
 * group by group as numbers (pairs in a four-digit group), "le" before a date.
 */
import { letterNames } from '../normalize.ts';
import type { CurrencyCode, Verbalizer } from '../verbalizer.ts';
import { frenchCardinal, frenchDecimal, frenchFeminine, frenchOrdinal, frenchPhoneGroup } from './numbers.ts';
import { frenchDateWords, frenchRules } from './rules.ts';

interface CurrencyNouns {
  readonly singular: string;
  readonly plural: string;
  /** The hundredth, said alone only when there is no whole unit ("cinquante centimes"). */
  readonly hundredth?: string;
  /** The hundredth's plural when it is not the singular with an s ("pence"). */
  readonly hundredths?: string;
}

const NOUNS: Readonly<Record<CurrencyCode, CurrencyNouns>> = {
  RWF: { singular: 'franc rwandais', plural: 'francs rwandais' },
  USD: { singular: 'dollar', plural: 'dollars', hundredth: 'cent' },
  EUR: { singular: 'euro', plural: 'euros', hundredth: 'centime' },
  GBP: { singular: 'livre sterling', plural: 'livres sterling', hundredth: 'penny', hundredths: 'pence' },
};

/** "un million de francs", "deux milliards d'euros": a round million is a noun taking "de". */
function amount(words: string, integer: number, noun: string): string {
  if (integer === 0 || integer % 1_000_000 !== 0) return `${words} ${noun}`;
  return /^[aeioué]/.test(noun) ? `${words} d'${noun}` : `${words} de ${noun}`;
}

function frenchMoney(integer: number, fractionDigits: string, currency: CurrencyCode): string {
  const { singular, plural, hundredth, hundredths } = NOUNS[currency];
  // French puts the singular below two: "un franc", "un virgule cinq franc".
  const noun = (value: number) => (Math.abs(value) < 2 ? singular : plural);
  const whole = amount(frenchCardinal(integer), integer, noun(integer));
  if (fractionDigits === '' || Number(fractionDigits) === 0) return whole;
  if (hundredth === undefined || fractionDigits.length > 2) {
    const value = Number(`${integer}.${fractionDigits}`);
    return amount(frenchDecimal(integer, fractionDigits), integer, noun(value));
  }
  const centimes = Number(fractionDigits.padEnd(2, '0'));
  if (integer === 0)
    return `${frenchCardinal(centimes)} ${centimes > 1 ? (hundredths ?? `${hundredth}s`) : hundredth}`;
  // Spoken French leaves the hundredths unnamed: "douze dollars cinquante".
  return `${whole} ${frenchCardinal(centimes)}`;
}

function frenchTime(hours: number, minutes: number): string {
  if (minutes === 0 && hours === 0) return 'minuit';
  if (minutes === 0 && hours === 12) return 'midi';
  const hour = `${frenchFeminine(hours)} ${hours < 2 ? 'heure' : 'heures'}`;
  return minutes === 0 ? hour : `${hour} ${frenchFeminine(minutes)}`;
}

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  'MM.': 'Messieurs',
  Mme: 'Madame',
  Mmes: 'Mesdames',
  Mlle: 'Mademoiselle',
  Mlles: 'Mesdemoiselles',
  Dr: 'Docteur',
  'Dr.': 'Docteur',
  Pr: 'Professeur',
  St: 'Saint',
  Ste: 'Sainte',
  'n°': 'numéro',
  'N°': 'numéro',
  'etc.': 'et cetera',
  'av.': 'avenue',
  bd: 'boulevard',
  'tél.': 'téléphone',
  'Tél.': 'Téléphone',
  'env.': 'environ',
  'c.-à-d.': "c'est-à-dire",
  'p. ex.': 'par exemple',
  km: 'kilomètres',
  'km/h': 'kilomètres heure',
  kg: 'kilogrammes',
  cm: 'centimètres',
  mm: 'millimètres',
  min: 'minutes',
  RWF: 'francs rwandais',
  Frw: 'francs rwandais',
  // Said as words, not spelled: listed here so the acronym pass leaves them alone.
  ONU: 'Onu',
  UNESCO: 'Unesco',
};

/** French readings for the shared normaliser. */
export const frenchVerbalizer: Verbalizer = {
  language: 'fr',
  minus: 'moins',
  decimalSeparator: ',',
  cardinal: frenchCardinal,
  largestAmount: 999_999_999_999,
  decimal: frenchDecimal,
  percent: (integer, fractionDigits) => `${frenchDecimal(integer, fractionDigits)} pour cent`,
  money: frenchMoney,
  phone: (groups) => groups.map(frenchPhoneGroup).join(', '),
  time: frenchTime,
  date: (day, month, year) => `le ${frenchDateWords(day, month, year)}`,
  ordinal: frenchOrdinal,
  letter: letterNames(
    'a|bé|cé|dé|e|effe|gé|hache|i|ji|ka|elle|emme|enne|o|pé|ku|erre|esse|té|u|vé|double vé|ixe|i grec|zède',
  ),
  abbreviations: ABBREVIATIONS,
  // As French voice menus say them: « tapez étoile », « touche dièse ».
  symbols: { star: 'étoile', hash: 'dièse', times: 'fois' },
  rules: frenchRules,
};
