import { isNegative, parseWrittenNumber } from '../normalize.ts';
import type { CurrencyCode } from '../verbalizer.ts';
import { type Agreement, cardinal, readDigits } from './numbers.ts';

/**
 * A decimal number as the reference Kinyarwanda normaliser reads it (anzeyimana/morphokin,
 * `spell_decimal`): the whole part, then "n'ibice" (and parts) with the digits after the mark as
 * one number agreeing with ibice (class 8): 2.25 "kabiri n'ibice makumyabiri na bitanu", .1
 * "n'igice kimwe" (one part). Two choices of our own, written in README.md: a single 5 is
 * "n'igice" (and a half: 2,5 "kabiri n'igice", as Harvard ELIAS writes 2 1/2 and as the
 * reference normaliser's own correction from recordings reads .5), and each leading zero is said
 * "zeru" so that 3,05 and 3,5 stay apart (the reference drops it). The whole part agrees like any
 * number (`agreement`: ibiro bibiri n'igice).
 */
export function decimalWords(
  integer: number,
  fractionDigits: string,
  agreement: Agreement = 'counting',
): string {
  if (isNegative(integer)) return `ukuyemo ${decimalWords(-integer, fractionDigits, agreement)}`;
  const whole = cardinal(integer, agreement);
  if (fractionDigits === '') return whole;
  if (fractionDigits === '5') return `${whole} n'igice`;
  if (fractionDigits === '1') return `${whole} n'igice kimwe`;
  const significant = fractionDigits.replace(/^0+/, '');
  const zeros = readDigits(fractionDigits.slice(0, fractionDigits.length - significant.length));
  const parts = significant === '' ? zeros : `${zeros} ${cardinal(Number(significant), 'class8')}`.trim();
  return `${whole} n'ibice ${parts}`;
}

/**
 * An amount as written in Rwanda, grouped or not, with a decimal part or not ("25", "1.500",
 * "26,338", "2,5"), with no leading zero but "0" itself, as a regular-expression source.
 */
export const AMOUNT = String.raw`(?:\d{1,3}(?:[.,\u00a0\u202f ]\d{3})+(?!\d)|[1-9]\d*|0)(?:[.,]\d+)?`;

/**
 * An amount as `AMOUNT` matches it, its value and its words agreeing with `agreement` (a mark
 * before three digits groups thousands, any other is decimal: README.md).
 */
export function writtenAmount(
  written: string,
  agreement: Agreement = 'counting',
): { readonly value: number; readonly words: string } | undefined {
  const n = parseWrittenNumber(written, '.', true);
  if (n === undefined) return undefined;
  const words =
    n.fractionDigits === ''
      ? cardinal(n.integer, agreement)
      : decimalWords(n.integer, n.fractionDigits, agreement);
  return { value: Number(`${n.integer}.${n.fractionDigits}`), words };
}

/** A percentage, "15%" read "cumi na gatanu ku ijana" (literally "fifteen per hundred"). */
export function percentWords(integer: number, fractionDigits: string): string {
  return `${decimalWords(integer, fractionDigits)} ku ijana`;
}

// After ku (to, at) three numerals lose their initial vowel and three keep it, as the reference
// normaliser writes them (kugeza ku munani, ku gihumbi, ku bihumbi; ku ijana, ku icumi, ku
// icyenda); before any other number the locative is "kuri".
const KU_ELIDES = /^(?:umunani|igihumbi|ibihumbi)\b/;
const KU_KEEPS = /^(?:ijana|icumi|icyenda)\b/;

/** A number in words after the locative: "ku bihumbi bitanu", "ku icumi", "kuri gatanu". */
export function locative(words: string): string {
  if (KU_ELIDES.test(words)) return `ku ${words.slice(1)}`;
  return KU_KEEPS.test(words) ? `ku ${words}` : `kuri ${words}`;
}

/** A range of two amounts in words: "kuva kuri gatanu kugeza ku icumi". */
export function rangeWords(from: string, to: string): string {
  return `kuva ${locative(from)} kugeza ${locative(to)}`;
}

interface Currency {
  readonly one: string;
  readonly many: string;
}

// The noun comes first and the number agrees with it (class 5/6: ifaranga rimwe, amafaranga abiri).
const CURRENCIES: Readonly<Record<CurrencyCode, Currency>> = {
  RWF: { one: 'ifaranga', many: 'amafaranga' },
  USD: { one: 'idolari', many: 'amadolari' },
  EUR: { one: 'iyero', many: 'amayero' },
  GBP: { one: 'ipawundi', many: 'amapawundi' },
};

/** The noun of a currency for an amount other than one: amafaranga, amadolari... */
export function currencyNoun(code: CurrencyCode): string {
  return CURRENCIES[code].many;
}

function countOf(currency: Currency, n: number): string {
  return n === 1 ? `${currency.one} rimwe` : `${currency.many} ${cardinal(n, 'class6')}`;
}

const CENTS: Currency = { one: 'isenti', many: 'amasenti' };

/**
 * An amount of money with the currency noun first: 5000 RWF gives "amafaranga ibihumbi bitanu",
 * $25 "amadolari makumyabiri n'atanu", €1 "iyero rimwe". One or two fraction digits are cents
 * (amasenti): $5.50 gives "amadolari atanu n'amasenti mirongo itanu"; more digits are read as a decimal.
 */
export function moneyWords(integer: number, fractionDigits: string, code: CurrencyCode): string {
  const currency = CURRENCIES[code];
  if (fractionDigits.length > 2) return `${currency.many} ${decimalWords(integer, fractionDigits, 'class6')}`;
  const cents = fractionDigits === '' ? 0 : Number(fractionDigits.padEnd(2, '0'));
  if (cents === 0) return countOf(currency, integer);
  if (integer === 0) return countOf(CENTS, cents);
  return `${countOf(currency, integer)} n'${countOf(CENTS, cents)}`;
}

/**
 * A phone number read digit by digit, group by group, with a comma (a short pause) between groups:
 * ["0788", "123", "456"] gives "zeru karindwi umunani umunani, rimwe kabiri gatatu, kane gatanu
 * gatandatu". A leading "+" is read "kongeraho" (plus, the word of Kinyarwanda arithmetic).
 */
export function phoneWords(groups: readonly string[]): string {
  return groups
    .map((group) => {
      const digits = readDigits(group);
      return group.trimStart().startsWith('+') ? `kongeraho ${digits}` : digits;
    })
    .filter((words) => words !== '')
    .join(', ');
}
