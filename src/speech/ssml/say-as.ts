/**
 * `say-as`: reads its content one given way, in the request's language, with the same
 * verbalizer the normaliser uses for plain text, so a date said through SSML sounds like a
 * date found in text. Content that cannot be read that way is refused, never read some other way.
 */
import { englishVerbalizer } from '../text/en/verbalizer.ts';
import { frenchVerbalizer } from '../text/fr/verbalizer.ts';
import { CURRENCY, CURRENCY_CODES, parseWrittenNumber } from '../text/normalize.ts';
import { kinyarwandaVerbalizer } from '../text/rw/verbalizer.ts';
import type { LanguageCode, Verbalizer } from '../text/verbalizer.ts';

export const interpretations = [
  'characters',
  'spell-out',
  'digits',
  'cardinal',
  'number',
  'ordinal',
  'telephone',
  'date',
  'time',
  'currency',
] as const;
export type Interpretation = (typeof interpretations)[number];

export const dateFormats = ['dmy', 'mdy', 'ymd'] as const;
export type DateFormat = (typeof dateFormats)[number];

const VERBALIZERS: Readonly<Record<LanguageCode, Verbalizer>> = {
  rw: kinyarwandaVerbalizer,
  en: englishVerbalizer,
  fr: frenchVerbalizer,
};

/** Why content cannot be read as asked; caught in `readSayAs`, never thrown out of this module. */
class Unreadable extends Error {}

// The normaliser's own limit: from a trillion up, nobody says a number aloud.
const MAX_NUMBER = 999_999_999_999;
// E.164 allows 15 digits; extensions and local prefixes get a little more.
const MAX_PHONE_DIGITS = 20;

const AMOUNT = '\\d(?:[\\d \\u00A0\\u202F\\u2009.,]*\\d)?';
const CURRENCY_FIRST = new RegExp(`^(${CURRENCY})\\s*(${AMOUNT})$`);
const AMOUNT_FIRST = new RegExp(`^(${AMOUNT})\\s*(${CURRENCY})$`);
const NUMBER = new RegExp(`^([-\\u2212])?\\s*(${AMOUNT})$`);
const ORDINAL = /^(\d+)\s*(?:st|nd|rd|th|e|er|re|ère|ème|eme|è|ᵉ|ᵉʳ|ʳᵉ|\.|º|°)?$/iu;
const TIME = /^(\d{1,2})(?:\s*(?::(\d{2})|h(\d{2})?))?(?:\s*([ap])\.?\s*m\.?)?$/i;
const PHONE = /^\(?\+?[\d\s\-.()]+$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const refuse = (content: string, interpretAs: string, what: string): never => {
  throw new Unreadable(`"${content}" in <say-as interpret-as="${interpretAs}"> ${what}`);
};

function spell(content: string, interpretAs: string, v: Verbalizer): string {
  const words: string[] = [];
  for (const char of content) {
    if (/[0-9]/.test(char)) {
      words.push(v.cardinal(Number(char)));
    } else {
      // Accented Latin letters are spelled as their base letter (é -> e); letters of other
      // scripts are skipped, as plain text skips them (../text/readable.ts).
      const base = char.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
      if (/^[A-Z]$/.test(base)) words.push(v.letter(base));
    }
  }
  if (words.length === 0) refuse(content, interpretAs, 'has no letter or digit to spell');
  return words.join(' ');
}

function digits(content: string, v: Verbalizer): string {
  if (!/^[0-9 ]+$/.test(content)) refuse(content, 'digits', 'is not digits: it may hold only 0-9 and spaces');
  return Array.from(content.replace(/ /g, ''), (d) => v.cardinal(Number(d))).join(' ');
}

function cardinal(content: string, interpretAs: string, v: Verbalizer): string {
  const match = NUMBER.exec(content);
  const n = match && parseWrittenNumber(match[2] ?? '', v.decimalSeparator, v.groupsBeforeThreeDigits);
  if (!match || !n) {
    return refuse(
      content,
      interpretAs,
      `is not a number: write it in figures, like "1500" or "3${v.decimalSeparator}5"`,
    );
  }
  if (n.integer > MAX_NUMBER) refuse(content, interpretAs, `is out of range: at most ${MAX_NUMBER}`);
  const negative = match[1] !== undefined;
  if (n.fractionDigits === '') return v.cardinal(negative && n.integer !== 0 ? -n.integer : n.integer);
  // `-0.5` reaches the verbalizer as `decimal(-0, "5")`, as the normaliser passes it.
  return v.decimal(negative ? -n.integer : n.integer, n.fractionDigits);
}

function ordinal(content: string, v: Verbalizer): string {
  const match = ORDINAL.exec(content);
  if (!match) return refuse(content, 'ordinal', 'is not an ordinal: write it like "3", "3rd", "3e" or "3."');
  const n = Number(match[1]);
  if (n < 1 || n > MAX_NUMBER) refuse(content, 'ordinal', `is out of range: from 1 to ${MAX_NUMBER}`);
  return v.ordinal(n);
}

function telephone(content: string, v: Verbalizer): string {
  const plusAt = content.indexOf('+');
  const plusFirst = /^\(?\+/.test(content);
  if (!PHONE.test(content) || (plusAt >= 0 && !plusFirst) || content.lastIndexOf('+') !== plusAt) {
    refuse(
      content,
      'telephone',
      'is not a phone number: digits in groups, with a leading "+" if international',
    );
  }
  const groups = content
    .replace('+', '')
    .split(/[\s\-.()]+/)
    .filter((g) => g !== '');
  const count = groups.join('').length;
  if (count === 0 || count > MAX_PHONE_DIGITS) {
    refuse(content, 'telephone', `is out of range: a phone number has 1 to ${MAX_PHONE_DIGITS} digits`);
  }
  if (plusFirst) groups[0] = `+${groups[0] ?? ''}`;
  return v.phone(groups);
}

function date(content: string, f: DateFormat, v: Verbalizer): string {
  const example = { dmy: '"25/12/2026" or "25-12"', mdy: '"12/25/2026" or "12/25"', ymd: '"2026-12-25"' };
  const parts = content.split(/\s*[/.-]\s*/);
  if (
    !parts.every((p) => /^\d{1,4}$/.test(p)) ||
    parts.length < 2 ||
    parts.length > 3 ||
    (f === 'ymd' && parts.length !== 3)
  ) {
    return refuse(content, 'date', `is not a date in the format ${f}: write it like ${example[f]}`);
  }
  const numbers = parts.map(Number);
  const [a = 0, b = 0, c] = numbers;
  const { day, month, year } =
    f === 'ymd'
      ? { year: a, month: b, day: c ?? 0 }
      : f === 'mdy'
        ? { month: a, day: b, year: c }
        : { day: a, month: b, year: c };
  const yearDigits = f === 'ymd' ? parts[0] : parts[2];
  if (yearDigits !== undefined && yearDigits.length !== 4)
    refuse(content, 'date', 'needs its year in four digits');
  const leap = year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
  const lastDay = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > lastDay)
    refuse(content, 'date', `is not a date that exists (format ${f})`);
  return v.date(day, month, year);
}

function time(content: string, v: Verbalizer): string {
  const match = TIME.exec(content);
  const hasSeparator = match !== null && /[:h]/i.test(content);
  if (!match || (!hasSeparator && match[4] === undefined)) {
    return refuse(content, 'time', 'is not a clock time: write it like "14:30", "2:30 pm" or "9h30"');
  }
  let hours = Number(match[1]);
  const minutes = Number(match[2] ?? match[3] ?? 0);
  const meridiem = match[4]?.toLowerCase();
  const hoursValid = meridiem === undefined ? hours <= 23 : hours >= 1 && hours <= 12;
  if (!hoursValid || minutes > 59) refuse(content, 'time', 'is not a time of day');
  if (meridiem === 'p' && hours < 12) hours += 12;
  if (meridiem === 'a' && hours === 12) hours = 0;
  return v.time(hours, minutes);
}

function currency(content: string, v: Verbalizer): string {
  const before = CURRENCY_FIRST.exec(content);
  const after = before ? null : AMOUNT_FIRST.exec(content);
  const code = CURRENCY_CODES[before?.[1] ?? after?.[2] ?? ''];
  const written = before?.[2] ?? after?.[1];
  const n =
    code && written !== undefined
      ? parseWrittenNumber(written, v.decimalSeparator, code === 'RWF' || v.groupsBeforeThreeDigits)
      : undefined;
  if (code === undefined || n === undefined) {
    return refuse(
      content,
      'currency',
      'is not an amount: write it like "1500 RWF", "RWF 1500", "$5.20", "5 €" or "USD 3"',
    );
  }
  if (n.integer > MAX_NUMBER) refuse(content, 'currency', `is out of range: at most ${MAX_NUMBER}`);
  return v.money(n.integer, n.fractionDigits, code);
}

function read(content: string, interpretAs: Interpretation, format: DateFormat, v: Verbalizer): string {
  if (content === '') return refuse(content, interpretAs, 'holds nothing to read');
  switch (interpretAs) {
    case 'characters':
    case 'spell-out':
      return spell(content, interpretAs, v);
    case 'digits':
      return digits(content, v);
    case 'cardinal':
    case 'number':
      return cardinal(content, interpretAs, v);
    case 'ordinal':
      return ordinal(content, v);
    case 'telephone':
      return telephone(content, v);
    case 'date':
      return date(content, format, v);
    case 'time':
      return time(content, v);
    case 'currency':
      return currency(content, v);
  }
}

/**
 * The words for the content of a `say-as` (whitespace already collapsed) read as `interpretAs`
 * in `language`, with the verbalizer plain text uses; `format` orders a date's parts. Content
 * that cannot be read that way gives a message saying what was wrong and how to write it.
 */
export function readSayAs(
  content: string,
  interpretAs: Interpretation,
  language: LanguageCode,
  format: DateFormat = 'dmy',
): { readonly ok: true; readonly words: string } | { readonly ok: false; readonly message: string } {
  try {
    return { ok: true, words: read(content, interpretAs, format, VERBALIZERS[language]) };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, message: error.message };
    throw error;
  }
}
