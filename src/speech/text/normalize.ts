/**
 * The shared text normaliser: finds numbers, money, phone numbers, clock times, dates,
 * percentages, acronyms and abbreviations, and asks a language's `Verbalizer` how to read them.
 * Passes run in order of precedence (language rules, money, phone, time, date, percent, number,
 * acronym, abbreviation); each pass replaces what it finds with words, so a later pass never
 * sees digits an earlier one already read. Everything else, punctuation included, is left as
 * written because the clause splitter downstream needs it.
 *
 * Choices that trade a rare misreading for a common right one: plain spaces group thousands in
 * every language (`5 000 Frw` is usual in Rwanda), so `rooms 101 102` reads as one number;
 * `14h` and `9h30` are times in every language, so an English `2h` (two hours) is misread;
 * upper-case words of four letters or more that look pronounceable are left to the engine as
 * words (see `readsAsWord`).
 */
import { normalizationFailed } from './normalization-failures.ts';
import type { CurrencyCode, LanguageCode, NormalizationRule, Verbalizer } from './verbalizer.ts';

/** A number as written, split into what the verbalizer methods take. */
export interface WrittenNumber {
  /** Negative numbers carry their sign here; `-0.5` gives `-0`, so test with `Object.is`. */
  readonly integer: number;
  readonly fractionDigits: string;
}

/**
 * Whether a number the normaliser passed is negative, `-0` included: `-0.5` reaches a
 * verbalizer as `decimal(-0, "5")`, and `-0 < 0` is false.
 */
export function isNegative(n: number): boolean {
  return n < 0 || Object.is(n, -0);
}

/**
 * A `Verbalizer.letter` from the names of the letters A to Z, separated by `|` (a name may hold
 * a space: "double you"); a character outside A-Z is returned as it is.
 */
export function letterNames(names: string): (upperCaseLetter: string) => string {
  const list = names.split('|');
  return (letter) => list[letter.charCodeAt(0) - 65] ?? letter;
}

/** A calendar date found in text. */
export interface WrittenDate {
  readonly day: number;
  readonly month: number;
  readonly year: number;
}

// Spaces allowed between digit groups: SI style (space, no-break, narrow no-break, thin).
const GROUP_SPACE = '[ \\u00A0\\u202F\\u2009]';
const NUMBER = `\\d{1,3}(?:(?:,\\d{3})+|(?:\\.\\d{3})+|(?:${GROUP_SPACE}\\d{3})+)(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?`;
// Not inside a longer number on either side (`1.2.3` is left alone, not read as `1.2` and `.3`).
const NUMBER_START = '(?<!\\p{N})(?<!\\p{N}[.,])';
const NUMBER_END = '(?![.,]?\\p{N})';
// A minus sign only where it cannot be a hyphen or a range dash (`COVID-19`, `2020-2021`).
const SIGN = '(?:(?<![\\p{L}\\p{N}.,\\-\\u2212])([-\\u2212]))?';
/** The spellings of currencies the normaliser reads, as a regular-expression alternation. */
export const CURRENCY = 'US\\$|RWF|RWf|Frw|FRW|frw|USD|EUR|GBP|\\$|€|£';
/** Each spelling of `CURRENCY` -> its ISO code. */
export const CURRENCY_CODES: Readonly<Record<string, CurrencyCode>> = {
  RWF: 'RWF',
  RWf: 'RWF',
  Frw: 'RWF',
  FRW: 'RWF',
  frw: 'RWF',
  USD: 'USD',
  US$: 'USD',
  $: 'USD',
  EUR: 'EUR',
  '€': 'EUR',
  GBP: 'GBP',
  '£': 'GBP',
};

/**
 * The numeric date shapes the normaliser reads, as a regular-expression source with no
 * capturing groups, so a language rule can embed it (e.g. French `du 12/05/2026`) and read
 * the match with `parseNumericDate`.
 */
export const NUMERIC_DATE_SOURCE =
  '\\d{4}-\\d{1,2}-\\d{1,2}|\\d{1,2}/\\d{1,2}/\\d{4}|\\d{1,2}-\\d{1,2}-\\d{4}|\\d{1,2}\\.\\d{1,2}\\.\\d{4}';

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Reads a numeric date: ISO 8601 `2026-05-12`, otherwise day first (`12/05/2026`,
 * `12-05-2026`, `12.05.2026`) as written in Rwanda. Returns undefined for an impossible date
 * (month 13, 31 April, 29 February of a common year), which is then left to other passes.
 */
export function parseNumericDate(text: string): WrittenDate | undefined {
  const parts = text.split(/[-/.]/).map(Number);
  if (parts.length !== 3) return undefined;
  const [a = 0, b = 0, c = 0] = parts;
  const iso = /^\d{4}-/.test(text);
  const date = iso ? { day: c, month: b, year: a } : { day: a, month: b, year: c };
  const leap = date.year % 4 === 0 && (date.year % 100 !== 0 || date.year % 400 === 0);
  const max = date.month === 2 && !leap ? 28 : (DAYS_IN_MONTH[date.month - 1] ?? 0);
  return date.day >= 1 && date.day <= max ? date : undefined;
}

/**
 * Reads a number as written, deciding which of `,` and `.` groups thousands. With both present
 * the last one is the decimal mark; a mark written twice or more groups thousands; a lone mark
 * is the language's decimal separator if it is that one, else a thousands separator when exactly
 * three digits follow (`1,000` in English, `1.000` in French), else a decimal mark after all
 * (`1,5` in English text is one and a half). `groupsBeforeThreeDigits` makes a lone mark before
 * three digits always group thousands: Rwandan francs (ISO 4217 exponent 0, `Frw 5.000`), and a
 * language whose texts write both marks both ways (Verbalizer.groupsBeforeThreeDigits).
 */
export function parseWrittenNumber(
  written: string,
  decimalSeparator: '.' | ',',
  groupsBeforeThreeDigits = false,
): WrittenNumber | undefined {
  const digits = written.replace(/[ \u00A0\u202F\u2009]/g, '');
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  let decimalMark: string | undefined;
  if (lastComma >= 0 && lastDot >= 0) {
    decimalMark = lastComma > lastDot ? ',' : '.';
  } else if (lastComma >= 0 || lastDot >= 0) {
    const mark = lastComma >= 0 ? ',' : '.';
    const single = digits.indexOf(mark) === digits.lastIndexOf(mark);
    // `0,125` is never a grouped number: a first group is never 0.
    const threeAfter = /^\d{3}$/.test(digits.slice(digits.lastIndexOf(mark) + 1)) && !/^0\D/.test(digits);
    if (single && !(threeAfter && (groupsBeforeThreeDigits || mark !== decimalSeparator))) decimalMark = mark;
  }
  const cut = decimalMark === undefined ? digits.length : digits.lastIndexOf(decimalMark);
  const integerDigits = digits.slice(0, cut).replace(/[.,]/g, '');
  const fractionDigits = digits.slice(cut + 1);
  if (!/^\d+$/.test(integerDigits) || !/^\d*$/.test(fractionDigits)) return undefined;
  return { integer: Number(integerDigits), fractionDigits };
}

type Replacer = (match: RegExpExecArray) => string | undefined;

interface Pass {
  /** For the failure report (`normalization-failures.ts`): the rule's name, or the pass's. */
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: Replacer;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Replaces every match; a replacer that returns undefined keeps the text as written. One that
 * throws is reported (`normalizationFailed`, which throws unless the service records it instead),
 * and its match is kept as written.
 */
function runPass(text: string, { name, pattern, replace }: Pass, language: LanguageCode): string {
  pattern.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0] === '') pattern.lastIndex++;
    let words: string | undefined;
    try {
      words = replace(m);
    } catch (error) {
      normalizationFailed({ language, pass: name, error });
      words = undefined;
    }
    if (words === undefined) continue;
    const end = m.index + m[0].length;
    // Keep words apart from letters or digits the match touched (`5km` -> `five km`).
    const before = m.index > 0 && WORD_CHAR.test(text.charAt(m.index - 1)) && words !== '' ? ' ' : '';
    const after = end < text.length && WORD_CHAR.test(text.charAt(end)) && words !== '' ? ' ' : '';
    out += text.slice(last, m.index) + before + words + after;
    last = end;
  }
  return out + text.slice(last);
}

const ROMAN_NUMERAL = /^[IVX]+$/;
const VOWEL = /[AEIOUY]/;
const ONSETS = new Set(['BL', 'BR', 'CH', 'CL', 'CR', 'DR', 'FL', 'FR', 'GL', 'GR', 'KR', 'PH', 'PL', 'PR']);
const MORE_ONSETS = ['SC', 'SH', 'SK', 'SL', 'SM', 'SN', 'SP', 'ST', 'SW', 'TH', 'TR', 'WH'];
for (const onset of MORE_ONSETS) ONSETS.add(onset);

/**
 * Whether an upper-case token of four letters or more reads as a word (NASA, UNESCO, COVID,
 * RURA) rather than letter by letter (UNHCR, FDLR): it has a vowel, never three consonants in a
 * row, and starts with a vowel, one consonant or a usual two-consonant onset. Two- and
 * three-letter tokens are always spelled (USA, BBC, MTN); a language lists exceptions (French
 * ONU) in its abbreviations, which the acronym pass leaves alone.
 */
export function readsAsWord(token: string): boolean {
  if (token.length < 4 || !VOWEL.test(token)) return false;
  if (/[^AEIOUY]{3}/.test(token)) return false;
  const start = /^[^AEIOUY]{2}/.exec(token);
  return start === null || ONSETS.has(start[0]);
}

/**
 * A language rule for a unit after the number one, which takes the singular ("1 km" -> "one
 * kilometre"); other amounts get the plural from the language's abbreviations after the number
 * pass ("5 km" -> "five kilometres"). `readings` maps each unit symbol to the words for one of it
 * (French `min` -> "une minute": the number agrees with the unit's gender).
 */
export function singularUnitRule(readings: Readonly<Record<string, string>>): NormalizationRule {
  const units = Object.keys(readings)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  return {
    name: 'unit-singular',
    pattern: new RegExp(`(?<![\\p{N}.,\\-\\u2212])1[ \\u00A0]?(${units.join('|')})(?![\\p{L}\\p{N}])`, 'gu'),
    replace: (m) => readings[m[1] ?? ''] ?? m[0],
  };
}

/** How a language says the parts of an e-mail or web address. */
export interface AddressWords {
  readonly at: string;
  readonly dot: string;
  readonly slash: string;
  readonly underscore: string;
  readonly dash: string;
  /** "www" as the language says it. */
  readonly www: string;
  readonly letter: (upperCaseLetter: string) => string;
  readonly cardinal: (n: number) => string;
  /**
   * A label said as a word, spelled for the language's reader where its own spelling would
   * misread it (Kinyarwanda reads the c of `com` as in "icupa", so it writes "kom"); a label
   * not listed, or every label when absent, is kept as written.
   */
  readonly spokenLabels?: Readonly<Partial<Record<SpokenLabel, string>>>;
  /**
   * Top-level domains after which a name with neither `www.` nor a scheme is an address too
   * (Rwandan texts name sites so: `igihe.com`, `ur.ac.rw`); when absent, only addresses that
   * start with `www.` or `http(s)://` are read, as English and French do.
   */
  readonly bareDomains?: readonly string[];
}

/** Domain labels said as words; any other label of three letters or fewer is spelled. */
const SPOKEN_LABELS = ['com', 'org', 'net', 'edu', 'gov', 'info'] as const;
/** A domain label said as a word rather than spelled. */
export type SpokenLabel = (typeof SPOKEN_LABELS)[number];
const isSpokenLabel = (label: string): label is SpokenLabel =>
  (SPOKEN_LABELS as readonly string[]).includes(label);

/**
 * Language rules for e-mail and web addresses, said as people say them ("info at kigali dash
 * clinic dot r w"). They run before every other rule: an address's dots and digits are not
 * sentence ends or numbers.
 */
export function addressRules(words: AddressWords): NormalizationRule[] {
  const say = (address: string) =>
    address
      .toLowerCase()
      .split(/([.@/_-])/)
      .filter((part) => part !== '')
      .map((part) => {
        const sign = {
          '.': words.dot,
          '@': words.at,
          '/': words.slash,
          _: words.underscore,
          '-': words.dash,
        }[part];
        if (sign) return sign;
        if (part === 'www') return words.www;
        if (/^\d+$/.test(part)) return words.cardinal(Number(part));
        if (isSpokenLabel(part)) return words.spokenLabels?.[part] ?? part;
        if (part.length <= 3 && /^[a-z]+$/.test(part))
          return Array.from(part.toUpperCase(), words.letter).join(' ');
        return part;
      })
      .join(' ');
  const rules: NormalizationRule[] = [
    {
      name: 'e-mail-address',
      pattern:
        /(?<![\p{L}\p{N}.@_+-])[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?![\p{L}\p{N}@]|\.[A-Za-z0-9])/gu,
      replace: (m) => say(m[0]),
    },
    {
      name: 'web-address',
      pattern:
        /(?<![\p{L}\p{N}.@/])(?:https?:\/\/(?:www\.)?|www\.)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:\/[A-Za-z0-9_-]+)*\/?(?![\p{L}\p{N}]|\.[A-Za-z0-9])/gu,
      replace: (m) => say(m[0].replace(/^https?:\/\//, '').replace(/\/$/, '')),
    },
  ];
  if (words.bareDomains !== undefined && words.bareDomains.length > 0) {
    const endings = words.bareDomains.map(escapeRegExp).join('|');
    rules.push({
      name: 'domain-name',
      // A first label that starts with a letter: `2.5.com` is not a site.
      pattern: new RegExp(
        `(?<![\\p{L}\\p{N}.@/_+-])[A-Za-z][A-Za-z0-9-]*(?:\\.[A-Za-z0-9-]+)*\\.(?:${endings})(?:\\/[A-Za-z0-9_-]+)*\\/?(?![\\p{L}\\p{N}@]|\\.[A-Za-z0-9])`,
        'giu',
      ),
      replace: (m) => say(m[0].replace(/\/$/, '')),
    });
  }
  return rules;
}

/**
 * A language rule for temperatures and angles after a number: `25°C`, `-3 °C`, `98.6°F`, `90°`.
 * The number stays digits for the number pass; `one` is said after exactly 1.
 */
export function degreeRule(words: {
  readonly one: string;
  readonly many: string;
  readonly C: string;
  readonly F: string;
  /** Whether `value` takes the singular; exactly 1 when absent (French: below 2). */
  readonly singular?: (value: number) => boolean;
}): NormalizationRule {
  const singular = words.singular ?? ((value: number) => value === 1);
  return {
    name: 'degrees',
    pattern: /(?<![\p{L}\p{N}.,])([-\u2212]?\d+(?:[.,]\d+)?)[ \u00A0]?°[ \u00A0]?([CF](?![\p{L}]))?/gu,
    replace: (m) => {
      const number = m[1] ?? '';
      const value = Math.abs(Number(number.replace(/^\u2212/, '-').replace(',', '.')));
      const unit = singular(value) ? words.one : words.many;
      const scale = m[2] === 'C' ? ` ${words.C}` : m[2] === 'F' ? ` ${words.F}` : '';
      return `${number} ${unit}${scale}`;
    },
  };
}

/**
 * A language rule for a range written with a hyphen or an en dash between two numbers
 * (`2020-2021`, `10–15`), which would otherwise run together as spoken words: the dash becomes
 * the language's word for "to". `year` reads both ends when both look like years (1100-2099),
 * for a language that says years differently from other numbers; other ends are left as digits
 * for the number pass.
 */
export function numberRangeRule(to: string, year?: (n: number) => string): NormalizationRule {
  const isYear = (digits: string) => digits.length === 4 && Number(digits) >= 1100 && Number(digits) < 2100;
  return {
    name: 'number-range',
    pattern: /(?<![\p{L}\p{N}]|\p{N}[.,/\-–])(\d{1,4})[-–](\d{1,4})(?!\p{N}|[.,/\-–]\p{N})/gu,
    replace: (m) => {
      const [from = '', until = ''] = [m[1], m[2]];
      if (year && isYear(from) && isYear(until)) return `${year(Number(from))} ${to} ${year(Number(until))}`;
      return `${from} ${to} ${until}`;
    },
  };
}

/** What says a number is an identifier (an extension, a flight, a box) and how to read it. */
export interface IdentifierReading {
  /** For tests and `--show normalized` debugging, e.g. `flight-number`. */
  readonly name: string;
  /** The words before the number, as a regular-expression source without capturing groups. */
  readonly keyword: string;
  /** The keyword as it is to be said (an abbreviation expanded: `ext.` -> "extension"). */
  readonly say: (keyword: string) => string;
  /** The digits as people read this kind of number. */
  readonly read: (digits: string) => string;
  /** For flights: a two-character airline code before the digits (`WB 464`), spelled with this. */
  readonly letter?: (upperCaseLetter: string) => string;
}

/**
 * A language rule for a number that names something rather than counts it, after the word that
 * says so: "extension 2045" is said digit by digit, "flight WB 464" and "P.O. Box 1234" the way
 * their digits are usually said (in pairs), never as "two thousand forty-five". A "number" sign
 * between them (`No.`, `n°`, `#`) is not said.
 */
export function identifierRule(reading: IdentifierReading): NormalizationRule {
  const code = reading.letter ? '(?:([A-Z][A-Z0-9]|[0-9][A-Z])[ \\u00A0]?)?' : '()';
  return {
    name: reading.name,
    pattern: new RegExp(
      `(?<![\\p{L}\\p{N}])(${reading.keyword})[ \\u00A0]?(?:(?:No\\.|no\\.|n°|N°|#)[ \\u00A0]?)?${code}(\\d{1,8})(?![\\p{L}\\p{N}]|[.,]\\p{N})`,
      'gu',
    ),
    replace: (m) => {
      const airline = m[2]
        ? Array.from(m[2], (c) => (/\d/.test(c) ? reading.read(c) : (reading.letter?.(c) ?? c)))
        : [];
      return [reading.say(m[1] ?? ''), ...airline, reading.read(m[3] ?? '')].join(' ');
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function withGlobalFlag(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
}

/** Rwandan numbers in the groups a person reads aloud: 07xx xxx xxx or +250 7xx xxx xxx. */
function phoneGroups(digits: string, international: boolean): string[] {
  const nsn = digits.slice(-9);
  const national = [nsn.slice(0, 3), nsn.slice(3, 6), nsn.slice(6)];
  return international ? ['+250', ...national] : [`0${national[0]}`, national[1] ?? '', national[2] ?? ''];
}

/**
 * Builds the normaliser of one language: a function from raw text to text with numbers, money,
 * phone numbers, times, dates, percentages, acronyms and abbreviations spelled out in that
 * language's words. Patterns are compiled once here; a pass that throws is reported (see
 * `normalization-failures.ts`: thrown by default; in the service, counted and logged, its match
 * kept as written while the other passes keep their work). It keeps punctuation and collapses
 * whitespace to single spaces, a run holding a line break becoming one line break (a sentence
 * boundary for the clause splitter).
 */
export function createNormalizer(verbalizer: Verbalizer): (text: string) => string {
  const v = verbalizer;
  const sep = v.decimalSeparator;
  const signed = (sign: string | undefined, n: number) => (sign ? -n : n);
  const digitByDigit = (digits: string) => Array.from(digits, (d) => v.cardinal(Number(d))).join(' ');
  const ruleToPass = (rule: NormalizationRule): Pass => ({
    name: rule.name,
    pattern: withGlobalFlag(rule.pattern),
    replace: (m) => rule.replace(m),
  });

  // An amount the language cannot say is no reading (left to the number pass), not an error.
  const sayable = (n: WrittenNumber | undefined) =>
    n !== undefined && Math.abs(n.integer) <= (v.largestAmount ?? Number.POSITIVE_INFINITY) ? n : undefined;

  const readNumber = (written: string, sign: string | undefined): string | undefined => {
    // A leading zero marks a code or an identifier (`007`), read digit by digit.
    if (/^0\d+$/.test(written)) return digitByDigit(written);
    const n = parseWrittenNumber(written, sep, v.groupsBeforeThreeDigits);
    if (n === undefined) return undefined;
    // From a trillion up, a digit string is an identifier, not a quantity anyone says aloud.
    if (n.integer > 999_999_999_999) return digitByDigit(written.replace(/\D/g, ''));
    const integer = signed(sign, n.integer);
    return n.fractionDigits === '' ? v.cardinal(integer) : v.decimal(integer, n.fractionDigits);
  };

  const abbreviationKeys = Object.keys(v.abbreviations).sort((a, b) => b.length - a.length);
  const abbreviationAlternatives = abbreviationKeys.map(
    (key) => `${escapeRegExp(key)}${WORD_CHAR.test(key.slice(-1)) ? '(?![\\p{L}\\p{N}])' : ''}`,
  );

  const spell = (token: string) =>
    token.length > 6 || token in v.abbreviations || ROMAN_NUMERAL.test(token) || readsAsWord(token)
      ? token
      : Array.from(token, (letter) => v.letter(letter)).join(' ');
  const acronyms: Pass = {
    name: 'acronym',
    // A run of upper-case words is matched whole: three or more words of two letters or more is
    // shouted text (CALL NOW TO BOOK), left for the engine to read as words.
    pattern: /(?<![\p{L}\p{N}])[A-Z]+(?: [A-Z]+)*(?![\p{L}\p{N}])/gu,
    replace: (m) => {
      const tokens = m[0].split(' ');
      if (tokens.filter((t) => t.length >= 2).length >= 3) return undefined;
      return tokens.map((t) => (t.length < 2 ? t : spell(t))).join(' ');
    },
  };

  const passes: Pass[] = [
    keypadPass(v),
    ...v.rules.map(ruleToPass),
    {
      name: 'money',
      pattern: new RegExp(
        `${SIGN}(?<![\\p{L}\\p{N}])(${CURRENCY})[ \\u00A0]?(${NUMBER})${NUMBER_END}|${SIGN}${NUMBER_START}(${NUMBER})[ \\u00A0]?(${CURRENCY})(?![\\p{L}\\p{N}])`,
        'gu',
      ),
      // A negative amount (-$20, -20 USD, a refund or a debt) says its sign first.
      replace: (m) => {
        const currency = CURRENCY_CODES[m[2] ?? m[6] ?? ''];
        if (currency === undefined) return undefined;
        const n = sayable(
          parseWrittenNumber(m[3] ?? m[5] ?? '', sep, currency === 'RWF' || v.groupsBeforeThreeDigits),
        );
        const amount = n && v.money(n.integer, n.fractionDigits, currency);
        return amount && ((m[1] ?? m[4]) === undefined ? amount : `${v.minus} ${amount}`);
      },
    },
    {
      name: 'phone',
      pattern:
        /(?<![\p{L}\p{N}+])(?:(\+|00|\(\+)?250\)?[ \u00A0-]?|0)(?:7[ .-]?[2389]|2[ .-]?5)(?:[ \u00A0.-]?\d){7}(?!\p{N})/gu,
      replace: (m) =>
        v.phone(phoneGroups(m[0].replace(/\D/g, ''), !m[0].startsWith('0') || m[0].startsWith('00'))),
    },
    {
      name: 'time',
      pattern:
        /(?<![\p{N}.,:])([01]?\d|2[0-3])(?::([0-5]\d)(?!:?\p{N})|[ \u00A0]?h(?:[ \u00A0]?([0-5]\d))?(?![\p{L}\p{N}]))(?:[ \u00A0]?([ap])\.?m\.?(?![\p{L}]))?|(?<![\p{N}.,:])(1[0-2]|0?[1-9])[ \u00A0]?([ap])\.?m\.?(?![\p{L}\p{N}])/giu,
      replace: (m) => {
        const meridiem = (m[4] ?? m[6])?.toLowerCase();
        let hours = Number(m[1] ?? m[5]);
        if (meridiem !== undefined && (hours < 1 || hours > 12)) return undefined;
        if (meridiem === 'p' && hours < 12) hours += 12;
        if (meridiem === 'a' && hours === 12) hours = 0;
        const words = v.time(hours, Number(m[2] ?? m[3] ?? 0));
        // "5 p.m." ending a sentence: its last dot is also the sentence's full stop.
        return m[0].endsWith('.') && endsSentence(m.input.slice(m.index + m[0].length)) ? `${words}.` : words;
      },
    },
    {
      name: 'date',
      pattern: new RegExp(`(?<![\\p{N}.,/-])(?:${NUMERIC_DATE_SOURCE})(?![.,/-]?\\p{N})`, 'gu'),
      replace: (m) => {
        const date = parseNumericDate(m[0]);
        return date && v.date(date.day, date.month, date.year);
      },
    },
    {
      name: 'percent',
      pattern: new RegExp(`${SIGN}${NUMBER_START}(${NUMBER})[ \\u00A0\\u202F]?%`, 'gu'),
      replace: (m) => {
        const n = sayable(parseWrittenNumber(m[2] ?? '', sep, v.groupsBeforeThreeDigits));
        return n && v.percent(signed(m[1], n.integer), n.fractionDigits);
      },
    },
    {
      name: 'number',
      pattern: new RegExp(`${SIGN}${NUMBER_START}(${NUMBER})${NUMBER_END}`, 'gu'),
      replace: (m) => readNumber(m[2] ?? '', m[1]),
    },
    acronyms,
  ];
  if (abbreviationAlternatives.length > 0) {
    passes.push({
      name: 'abbreviation',
      pattern: new RegExp(`(?<![\\p{L}\\p{N}])(?:${abbreviationAlternatives.join('|')})`, 'gu'),
      // A dot that also ended the text or a line is kept as the sentence's full stop.
      replace: (m) => {
        const words = v.abbreviations[m[0]];
        const rest = m.input.slice(m.index + m[0].length);
        return words !== undefined && m[0].endsWith('.') && /^\s*(?:\n|$)/.test(rest) ? `${words}.` : words;
      },
    });
  }

  return (text: string): string => {
    let out = String(text);
    for (const pass of passes) out = runPass(out, pass, v.language);
    return collapseWhitespace(out);
  };
}

/**
 * `*` and `#` read as what they mean (see `Verbalizer.symbols`): a USSD or keypad code key by
 * key ("star one eight two star seven hash"), a key on its own ("press #"), a star between
 * numbers as a product; any other (`#5`, `C#`, a footnote's star) is not said. Runs first: a
 * code's digits are keys, not a number.
 */
function keypadPass(v: Verbalizer): Pass {
  const { star, hash, times } = v.symbols;
  const key = (character: string) =>
    character === '*' ? star : character === '#' ? hash : v.cardinal(Number(character));
  return {
    name: 'keypad',
    pattern:
      /(?<![\p{L}\p{N}*#/])([*#][\d*#]*\d[\d*#]*#)(?![\p{L}\p{N}])|(?<=\p{N}[ \t]*)(\*)(?=[ \t]*\p{N})|(?<![\p{L}\p{N}*#])([*#])(?![\p{L}\p{N}*#])|[*#]+/gu,
    replace: (m) => {
      if (m[1] !== undefined) return Array.from(m[1], key).join(' ');
      if (m[2] !== undefined) return times;
      return m[3] !== undefined ? key(m[3]) : ' ';
    },
  };
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, (run) => (run.includes('\n') ? '\n' : ' ')).trim();
}

/** Whether what follows a dot makes it a sentence's end: nothing, a line break, or a capital. */
function endsSentence(rest: string): boolean {
  return /^\s*(?:$|\n|\p{Lu})/u.test(rest);
}
