import { cardinal, link, ordinal } from './numbers.ts';

/** Month names as the Rwandan administration and press write them (CLDR rw; Harvard ELIAS unit 3). */
export const MONTHS = [
  'mutarama',
  'gashyantare',
  'werurwe',
  'mata',
  'gicurasi',
  'kamena',
  'nyakanga',
  'kanama',
  'nzeri',
  'ukwakira',
  'ugushyingo',
  'ukuboza',
] as const;

/** The month names as written, any of them, as a regular-expression alternation. */
export const MONTH_NAMES =
  'Mutarama|Gashyantare|Werurwe|Mata|Gicurasi|Gicuransi|Kamena|Nyakanga|Kanama|Nzeri|Nzeli|Ukwakira|Ugushyingo|Ukuboza';

// Older CLDR data and older texts spell two months differently; both are read with today's name.
const MONTH_VARIANTS: Readonly<Record<string, number>> = { nzeli: 9, gicuransi: 5 };

/** The month number (1-12) of a Kinyarwanda month name in any letter case, or undefined. */
export function monthNumber(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = MONTHS.indexOf(lower as (typeof MONTHS)[number]);
  return index >= 0 ? index + 1 : MONTH_VARIANTS[lower];
}

/**
 * The day of the month after "tariki ya": 1 is "mbere", 2-10 the ordinal forms (kabiri... cumi), and
 * from 11 on the cardinal agreeing with itariki (class 9/10): 12 "cumi n'ebyiri", 21 "makumyabiri n'imwe".
 */
export function dayOfMonth(day: number): string {
  return ordinal(day, 'class10');
}

/**
 * A year as "umwaka w'..." with the number in counting form: 2026 gives
 * "umwaka w'ibihumbi bibiri na makumyabiri na gatandatu".
 */
export function yearPhrase(year: number): string {
  return `umwaka ${link('wa', cardinal(year))}`;
}

/**
 * A calendar date read the way Rwandan media say "tariki 12 Gicurasi 2026": "tariki ya cumi n'ebyiri
 * gicurasi umwaka w'ibihumbi bibiri na makumyabiri na gatandatu". `lead` is the words that introduce
 * the day: "tariki ya", "itariki ya" when the text wrote it so, "ku wa" (ku wa 1 Gicurasi: "ku wa
 * mbere gicurasi"), "ku ya" at the end of a range. An impossible month is read as a number.
 */
export function dateWords(day: number, month: number, year: number | undefined, lead = 'tariki ya'): string {
  const monthName = MONTHS[month - 1] ?? `ukwezi ${link('kwa', ordinal(month))}`;
  // After "wa" (umunsi wa, the day) the day is an ordinal like any other; after "ya" it agrees
  // with itariki (class 9/10) from 11 on.
  const dayWords = lead.endsWith('wa') ? ordinal(day) : dayOfMonth(day);
  const base = `${lead} ${dayWords} ${monthName}`;
  return year === undefined ? base : `${base} ${yearPhrase(year)}`;
}
