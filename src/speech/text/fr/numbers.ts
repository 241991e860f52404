/**
 * French number words in the traditional spelling the Académie française still gives first:
 * hyphens between tens and units below one hundred only ("vingt-deux", "deux cent deux"),
 * "et" before "un" and "onze" from twenty-one to seventy-one ("vingt et un", "soixante et
 * onze") but not after "quatre-vingt" ("quatre-vingt-un"); "vingt" and "cent" take an "s" when
 * multiplied and last ("quatre-vingts", "deux cents") or before the nouns "million" and
 * "milliard", never before "mille" ("deux cent mille"); "mille" never varies.
 */
import { isNegative } from '../normalize.ts';

const ONES = (
  'zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize ' +
  'dix-sept dix-huit dix-neuf'
).split(' ');
const TENS = '- - vingt trente quarante cinquante soixante'.split(' ');

/** `last`: nothing but a noun (million, milliard) or the end follows, so "vingts" and "cents". */
function belowHundred(n: number, last: boolean): string {
  if (n < 20) return ONES[n] ?? '';
  const tens = Math.floor(n / 10);
  if (tens >= 8) {
    const rest = n - 80;
    return rest === 0 ? `quatre-vingt${last ? 's' : ''}` : `quatre-vingt-${ONES[rest]}`;
  }
  // Seventy is sixty-ten: "soixante-dix", "soixante et onze", "soixante-douze".
  const base = tens === 7 ? 6 : tens;
  const rest = n - base * 10;
  if (rest === 0) return TENS[base] ?? '';
  return rest === 1 || rest === 11 ? `${TENS[base]} et ${ONES[rest]}` : `${TENS[base]}-${ONES[rest]}`;
}

function belowThousand(n: number, last: boolean): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  if (hundreds === 0) return belowHundred(rest, last);
  const cent = hundreds === 1 ? 'cent' : `${ONES[hundreds]} cent${rest === 0 && last ? 's' : ''}`;
  return rest === 0 ? cent : `${cent} ${belowHundred(rest, last)}`;
}

/** A whole number in words, "moins" before a negative one; up to the hundreds of milliards. */
export function frenchCardinal(n: number): string {
  if (!Number.isSafeInteger(n) || Math.abs(n) >= 1e12) throw new RangeError(`out of range: ${n}`);
  if (n < 0) return `moins ${frenchCardinal(-n)}`;
  if (n < 1000) return belowThousand(n, true);
  const words: string[] = [];
  for (const [size, noun] of [
    [1e9, 'milliard'],
    [1e6, 'million'],
  ] as const) {
    const count = Math.floor(n / size) % 1000;
    if (count) words.push(`${belowThousand(count, true)} ${noun}${count > 1 ? 's' : ''}`);
  }
  const thousands = Math.floor(n / 1000) % 1000;
  if (thousands) words.push(thousands === 1 ? 'mille' : `${belowThousand(thousands, false)} mille`);
  const rest = n % 1000;
  if (rest) words.push(belowThousand(rest, true));
  return words.join(' ');
}

/** The feminine form, for hours and minutes ("vingt et une heures", "une heure"). */
export function frenchFeminine(n: number): string {
  return frenchCardinal(n).replace(/(^|[ -])un$/, '$1une');
}

/** An ordinal in words: "premier", then the cardinal with "-ième" ("vingt et unième", "neuvième"). */
export function frenchOrdinal(n: number): string {
  if (n === 1) return 'premier';
  return `${frenchCardinal(n)
    .replace(/(vingt|cent|million|milliard)s$/, '$1')
    .replace(/cinq$/, 'cinqu')
    .replace(/neuf$/, 'neuv')
    .replace(/e$/, '')}ième`;
}

/** Digits as a number after their leading zeros, each said "zéro" ("05" -> "zéro cinq"). */
export function frenchZeroLed(digits: string): string {
  const rest = digits.replace(/^0+/, '');
  const zeros = Array<string>(digits.length - rest.length).fill('zéro');
  return (rest ? [...zeros, frenchCardinal(Number(rest))] : zeros).join(' ');
}

/**
 * A number that names a thing rather than counts it (a flight, a post-office box, an extension),
 * read as French speakers read such numbers and phone numbers: up to three digits as a number,
 * longer ones in pairs ("vol 1234": douze trente-quatre; "3502": trente-cinq zéro deux), an odd
 * first digit alone; leading zeros said "zéro".
 */
export function frenchPairs(digits: string): string {
  if (digits.length <= 3) return frenchZeroLed(digits);
  const pairs = digits.length % 2 === 0 ? digits : digits.slice(1);
  const head = digits.length % 2 === 0 ? [] : [frenchZeroLed(digits.charAt(0))];
  return [...head, ...(pairs.match(/\d\d/g) ?? []).map(frenchZeroLed)].join(' ');
}

/**
 * One group of a phone number as written: "+33" as "plus trente-trois", an even group in pairs
 * (`0788`: zéro sept, quatre-vingt-huit), an odd one as one number (`123`: cent vingt-trois).
 */
export function frenchPhoneGroup(group: string): string {
  if (group.startsWith('+')) return `plus ${frenchCardinal(Number(group.slice(1)))}`;
  return group.length % 2 === 0 ? frenchPairs(group) : frenchZeroLed(group);
}

/**
 * Digits after the decimal comma as French speakers read them: leading zeros one by one, then
 * the rest as a number ("3,05" -> "zéro cinq", "3,25" -> "vingt-cinq"); a long tail digit by digit.
 */
export function frenchFraction(digits: string): string {
  if (digits.replace(/^0+/, '').length <= 3) return frenchZeroLed(digits);
  return Array.from(digits, (d) => ONES[Number(d)] ?? d).join(' ');
}

/** "trois virgule cinq"; a sign on a zero integer part (`-0`) is kept: "moins zéro virgule cinq". */
export function frenchDecimal(integer: number, fractionDigits: string): string {
  const words = [frenchCardinal(Math.abs(integer))];
  if (fractionDigits) words.push('virgule', frenchFraction(fractionDigits));
  if (isNegative(integer)) words.unshift('moins');
  return words.join(' ');
}
