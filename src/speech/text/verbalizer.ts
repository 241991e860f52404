/**
 * The contract between the shared text normaliser (which finds numbers, money, phone numbers,
 * times, dates and acronyms in text) and each language (which says how to read them).
 * Detection is shared so the three languages agree on what a phone number or a date is;
 * reading is per language because it is where they differ.
 */

export type LanguageCode = 'rw' | 'en' | 'fr';

/** Currencies the normaliser recognises, by ISO code; symbols and local spellings map here. */
export type CurrencyCode = 'RWF' | 'USD' | 'EUR' | 'GBP';

/** A pattern that only one language has (ordinals as written, dates with month names...). */
export interface NormalizationRule {
  /** Short name for tests and `--show normalized` debugging, e.g. `ordinal-wa`. */
  readonly name: string;
  /** Must carry the `g` flag (and usually `u`). */
  readonly pattern: RegExp;
  /** Returns the words that replace the whole match. */
  replace(match: RegExpExecArray): string;
}

/** How one language reads what the shared normaliser detects. Every method returns words. */
export interface Verbalizer {
  readonly language: LanguageCode;
  /** The decimal separator of the language as usually written (`3.5` in English, `3,5` in French). */
  readonly decimalSeparator: '.' | ',';
  /**
   * Whether a lone `.` or `,` before exactly three digits always groups thousands, whichever mark
   * it is (`1,500` and `1.500` are both 1500): for a language whose texts write both marks both
   * ways, so that only a mark before other than three digits is a decimal one.
   */
  readonly groupsBeforeThreeDigits?: boolean;
  /** A whole number in counting form; negative numbers too. Must cover at least 0..999,999,999. */
  cardinal(n: number): string;
  /**
   * The largest amount (of money, or a percentage) the language says in words; a larger one is
   * not a reading the normaliser asks for, and the number pass reads its digits instead. No bound
   * when absent.
   */
  readonly largestAmount?: number;
  /** The word said before a negative amount ("minus"). */
  readonly minus: string;
  /** `integer` and the fraction digits exactly as written (`3,05` -> 3, "05"). */
  decimal(integer: number, fractionDigits: string): string;
  /** A percentage; `fractionDigits` is "" for a whole percentage. */
  percent(integer: number, fractionDigits: string): string;
  /** An amount of money; `fractionDigits` is "" when none were written. */
  money(integer: number, fractionDigits: string, currency: CurrencyCode): string;
  /** A phone number read group by group: `["+250", "788", "123", "456"]` or `["0788", "123", "456"]`. */
  phone(groups: readonly string[]): string;
  /** A clock time on the 24-hour clock as written (`14:30` -> 14, 30). */
  time(hours: number, minutes: number): string;
  /** A calendar date; month is 1..12. */
  date(day: number, month: number, year: number | undefined): string;
  /** An ordinal number (first, second...). */
  ordinal(n: number): string;
  /** The spoken name of one letter A-Z, for acronyms spelled out. */
  letter(upperCaseLetter: string): string;
  /**
   * Words for `*` and `#` as keys of a phone (a USSD code `*182*7#` is read key by key, "press #")
   * and for `*` between two numbers (`5 * 3`).
   */
  readonly symbols: { readonly star: string; readonly hash: string; readonly times: string };
  /** Abbreviations as written (with their dot, if any) -> words, e.g. `Dr.` -> `Doctor`. */
  readonly abbreviations: Readonly<Record<string, string>>;
  /** Language-only patterns, tried before the shared ones. */
  readonly rules: readonly NormalizationRule[];
}
