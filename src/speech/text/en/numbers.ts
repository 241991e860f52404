/**
 * English number words. American style: no "and" inside a number ("one hundred one"), as the
 * Chicago Manual of Style spells numbers out, so "and" is left for money ("twelve dollars and
 * fifty cents"); tens and units joined by a hyphen ("twenty-one").
 */
import { isNegative } from '../normalize.ts';

const ONES = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen ' +
  'sixteen seventeen eighteen nineteen'
).split(' ');
const TENS = '- - twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');
const SCALES: readonly [number, string][] = [
  [1e12, 'trillion'],
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];

function belowHundred(n: number): string {
  if (n < 20) return ONES[n] ?? '';
  const units = n % 10;
  return `${TENS[Math.floor(n / 10)]}${units ? `-${ONES[units]}` : ''}`;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  const words = hundreds ? [`${ONES[hundreds]} hundred`] : [];
  if (rest || !hundreds) words.push(belowHundred(rest));
  return words.join(' ');
}

/** A whole number in words, "minus" before a negative one; up to the trillions. */
export function englishCardinal(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer: ${n}`);
  if (n < 0) return `minus ${englishCardinal(-n)}`;
  if (n < 1000) return belowThousand(n);
  const words: string[] = [];
  let rest = n;
  for (const [size, name] of SCALES) {
    const count = Math.floor(rest / size);
    if (count) words.push(`${englishCardinal(count)} ${name}`);
    rest %= size;
  }
  if (rest) words.push(belowThousand(rest));
  return words.join(' ');
}

const IRREGULAR_ORDINALS: Readonly<Record<string, string>> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

/** An ordinal in words: only the last word changes ("twenty-first", "one hundredth"). */
export function englishOrdinal(n: number): string {
  return englishCardinal(n).replace(/[a-z]+$/, (last) => {
    const irregular = IRREGULAR_ORDINALS[last];
    if (irregular) return irregular;
    return last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`;
  });
}

/**
 * A year as people say it: "nineteen ninety-four", "nineteen oh five", "nineteen hundred",
 * "two thousand five", "twenty twenty-six"; other numbers as cardinals.
 */
export function englishYear(year: number): string {
  if (year < 1100 || year > 9999 || (year >= 2000 && year < 2010)) return englishCardinal(year);
  return englishPairs(String(year));
}

/**
 * A number that names a thing rather than counts it (a flight, a post-office box), said the way
 * years are: the last two digits as a pair after the rest, "four oh one", "twelve thirty-four",
 * "twelve hundred", but "two thousand" for a round thousand. Two digits or fewer are a plain
 * number; a leading zero or more than four digits, digit by digit.
 */
export function englishPairs(digits: string): string {
  if (!/^\d+$/.test(digits) || digits.startsWith('0') || digits.length > 4) return englishDigits(digits);
  const n = Number(digits);
  if (n < 100 || n % 1000 === 0) return englishCardinal(n);
  const head = englishCardinal(Math.floor(n / 100));
  const rest = n % 100;
  if (rest === 0) return `${head} hundred`;
  return `${head} ${rest < 10 ? `oh ${ONES[rest]}` : belowHundred(rest)}`;
}

/** Digits read one by one, as after a decimal point or in a phone number. */
export function englishDigits(digits: string): string {
  return Array.from(digits, (d) => ONES[Number(d)] ?? d).join(' ');
}

/** "three point one four"; a sign on a zero integer part (`-0`) is kept: "minus zero point five". */
export function englishDecimal(integer: number, fractionDigits: string): string {
  const sign = isNegative(integer) ? 'minus ' : '';
  const point = fractionDigits ? ` point ${englishDigits(fractionDigits)}` : '';
  return `${sign}${englishCardinal(Math.abs(integer))}${point}`;
}
