import type { NormalizationRule } from '../verbalizer.ts';
import { cardinal, link, ordinal } from './numbers.ts';

/**
 * A fraction as Harvard ELIAS ("Grammar: Fundamental mathematics") writes them: the numerator
 * agrees with igice/ibice (class 7/8), the connective cya/bya, then the denominator's ordinal:
 * 1/2 "kimwe cya kabiri", 3/4 "bitatu bya kane", 1/100 "kimwe cy'ijana".
 */
export function fractionWords(numerator: number, denominator: number): string {
  const connective = numerator === 1 ? 'cya' : 'bya';
  return `${cardinal(numerator, 'class8')} ${link(connective, ordinal(denominator))}`;
}

/**
 * A whole number and a fraction (ELIAS: 1 1/2 "rimwe n'igice", 10 1/4 "icumi na kimwe cya
 * kane"): a half is "n'igice", another fraction joins with "na".
 */
export function mixedNumberWords(whole: number, numerator: number, denominator: number): string {
  if (numerator * 2 === denominator) return `${cardinal(whole)} n'igice`;
  return `${cardinal(whole)} ${link('na', fractionWords(numerator, denominator))}`;
}

const VULGAR_FRACTIONS: Readonly<Record<string, readonly [number, number]>> = {
  '½': [1, 2],
  '⅓': [1, 3],
  '⅔': [2, 3],
  '¼': [1, 4],
  '¾': [3, 4],
  '⅕': [1, 5],
  '⅖': [2, 5],
  '⅗': [3, 5],
  '⅘': [4, 5],
  '⅙': [1, 6],
  '⅚': [5, 6],
  '⅛': [1, 8],
  '⅜': [3, 8],
  '⅝': [5, 8],
  '⅞': [7, 8],
};
const VULGAR = Object.keys(VULGAR_FRACTIONS).join('');

export const fraction: NormalizationRule = {
  name: 'fraction',
  // "1/2", "3/4", "½", "2 1/2", "2½" (Harvard ELIAS, "Grammar: Fundamental mathematics"). A slash
  // is a fraction only for a proper one over 2-10 or 100, the denominators the course reads: 24/7
  // or 12/05 are left to other readings.
  pattern: new RegExp(
    String.raw`(?<![\p{N}.,/])(?:(\d{1,3})(?:\s+(?=\d+/)|(?=[${VULGAR}])))?(?:([1-9]\d?)/([1-9]\d{0,2})|([${VULGAR}]))(?![\p{N}/]|[.,]\p{N})`,
    'gu',
  ),
  replace(match) {
    const [whole, integer, top, bottom, vulgar] = match;
    const [numerator, denominator] =
      vulgar === undefined ? [Number(top), Number(bottom)] : (VULGAR_FRACTIONS[vulgar] ?? [0, 0]);
    const readable = numerator < denominator && (denominator <= 10 || denominator === 100);
    if (!readable) return whole;
    if (integer === undefined) return fractionWords(numerator, denominator);
    return mixedNumberWords(Number(integer), numerator, denominator);
  },
};
