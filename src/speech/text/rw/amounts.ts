import type { CurrencyCode } from '../verbalizer.ts';
import { cardinal, readDigits } from './numbers.ts';

/**
 * A decimal number: the whole part in counting form, the comma said as "akitso" (the Kinyarwanda name
 * of the comma, the decimal sign in Rwanda per CLDR rw), then the fraction digits one by one so that
 * "3,05" and "3,5" stay distinct: "gatatu akitso zeru gatanu", "gatatu akitso gatanu". This is a
 * choice: no published rule for reading decimals aloud was found.
 */
export function decimalWords(integer: number, fractionDigits: string): string {
  const whole = cardinal(integer);
  return fractionDigits === '' ? whole : `${whole} akitso ${readDigits(fractionDigits)}`;
}

/** A percentage, "15%" read "cumi na gatanu ku ijana" (literally "fifteen per hundred"). */
export function percentWords(integer: number, fractionDigits: string): string {
  return `${decimalWords(integer, fractionDigits)} ku ijana`;
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
  if (fractionDigits.length > 2) return `${currency.many} ${decimalWords(integer, fractionDigits)}`;
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
