/**
 * Patterns only French has: ordinals written with a suffix (1er, 1re, 2e, 3ème), "M." before
 * a name, a date after "le", "du" or "au" (the article is already written), ranges read with
 * "à", and the singular of a unit after "1".
 */
import { NUMERIC_DATE_SOURCE, numberRangeRule, parseNumericDate, singularUnitRule } from '../normalize.ts';
import type { NormalizationRule } from '../verbalizer.ts';
import { frenchCardinal, frenchOrdinal } from './numbers.ts';

const MONTHS = 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(
  ' ',
);

/** A date without its article: "premier mai", "douze mai deux mille vingt-six". */
export function frenchDateWords(day: number, month: number, year: number | undefined): string {
  const words = `${day === 1 ? 'premier' : frenchCardinal(day)} ${MONTHS[month - 1] ?? frenchCardinal(month)}`;
  return year === undefined ? words : `${words} ${frenchCardinal(year)}`;
}

export const frenchRules: readonly NormalizationRule[] = [
  {
    name: 'date-after-article',
    pattern: new RegExp(`(?<![\\p{L}])([Ll]e|[Dd]u|[Aa]u) (${NUMERIC_DATE_SOURCE})(?![.,/-]?\\p{N})`, 'gu'),
    replace: (m) => {
      const date = parseNumericDate(m[2] ?? '');
      return date ? `${m[1]} ${frenchDateWords(date.day, date.month, date.year)}` : m[0];
    },
  },
  {
    // Banque de dépannage linguistique: 1er, 1re, 2e; "1ère", "2ème" and "2nd" are still common.
    name: 'ordinal',
    pattern: /(?<![\p{L}\p{N}.,])(\d{1,9})(er|re|ère|e|ème|eme|è|nd|nde)(?![\p{L}\p{N}])/gu,
    replace: (m) => {
      const n = Number(m[1]);
      const suffix = m[2] ?? '';
      if (n === 1) return suffix === 're' || suffix === 'ère' ? 'première' : 'premier';
      if (n === 2 && suffix.startsWith('nd')) return suffix === 'nde' ? 'seconde' : 'second';
      return frenchOrdinal(n);
    },
  },
  {
    // "M." is Monsieur only before a name, not as the initial in "J. M. Kagame".
    name: 'monsieur',
    pattern: /(?<![\p{L}.]|\p{Lu}\. )M\.(?= \p{Lu})/gu,
    replace: () => 'Monsieur',
  },
  numberRangeRule('à'),
  singularUnitRule({
    km: 'un kilomètre',
    kg: 'un kilogramme',
    cm: 'un centimètre',
    mm: 'un millimètre',
    'km/h': 'un kilomètre heure',
    min: 'une minute',
  }),
];
