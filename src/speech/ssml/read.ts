/**
 * Ijwi's SSML: the contract's subset, parsed here into the one speech document. The XML parser
 * (saxes) only tokenises; every element and attribute is checked against the table below, and
 * nothing of the markup reaches an engine. No DOCTYPE, so no entities beyond XML's five and
 * character references; no processing instructions or CDATA.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { codePointCount } from '../../unicode.ts';
import type { IpaReading } from '../engines/engine.ts';
import { firstForbiddenCharacter } from '../input/control-characters.ts';
import {
  MAX_BREAK_MS,
  MAX_BREAKS_MS_PER_REQUEST,
  MAX_RATE,
  MIN_RATE,
  type SpeechDocument,
  type SpeechSegment,
} from '../input/document.ts';
import type { LanguageCode } from '../text/verbalizer.ts';
import { markWords } from '../text/word-language/marks.ts';
import { type DateFormat, dateFormats, type Interpretation, interpretations, readSayAs } from './say-as.ts';

export type SsmlResult =
  | { readonly ok: true; readonly document: SpeechDocument }
  | {
      readonly ok: false;
      readonly error: {
        readonly message: string;
        /** The element at fault; null for an error of XML syntax. */
        readonly element: string | null;
        /** 1-based, where the element (or the syntax error) starts. */
        readonly line: number;
        readonly column: number;
      };
    };

/** Pauses of `break strength`, in ms. */
const STRENGTHS: Readonly<Record<string, number>> = {
  none: 0,
  'x-weak': 100,
  weak: 200,
  medium: 400,
  strong: 700,
  'x-strong': 1000,
};
/** The pause between paragraphs: a strong break, not counted in the request's breaks. */
const PARAGRAPH_MS = STRENGTHS.strong ?? 700;
const RATES: Readonly<Record<string, number>> = {
  'x-slow': 0.5,
  slow: 0.75,
  medium: 1,
  default: 1,
  fast: 1.25,
  'x-fast': 1.5,
};
const MAX_DEPTH = 32;
/** A phoneme is a word or a few: its IPA is spoken as one piece, which nothing splits. */
export const MAX_PHONEME_CHARACTERS = 300;
const SENTENCE_END = /[.!?…]["'”’»)]*\s*$/u;
/** A clause mark at the end of a sentence gives way to the full stop. */
const CLAUSE_END = /[,;:—–-]\s*$/u;
/** What each element may not hold, beyond the text-only ones (SSML 1.1, 3.1.8). */
const NOT_INSIDE: Readonly<Record<string, readonly string[]>> = { p: ['p'], s: ['s', 'p'] };

/** Attributes each element may carry; `xmlns` and `xmlns:*` are also allowed on `speak`. */
const ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  speak: ['version', 'xml:lang', 'xmlns'],
  p: ['xml:lang'],
  s: ['xml:lang'],
  lang: ['xml:lang'],
  break: ['time', 'strength'],
  'say-as': ['interpret-as', 'format'],
  sub: ['alias'],
  prosody: ['rate'],
  phoneme: ['alphabet', 'ph'],
};
/**
 * Whether `tag` is a well-formed BCP 47 language tag: ASCII letters, digits and single hyphens
 * only (checked first, as what `Intl` accepts is wider than what it must be read as), then
 * `Intl.getCanonicalLocales`, which refuses ill-formed subtags (over-long, empty, misplaced).
 */
function isLanguageTag(tag: string): boolean {
  if (!/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}

/** The languages a `lang` element may name, by the primary subtag of its `xml:lang`. */
const WORD_LANGUAGES: readonly LanguageCode[] = ['rw', 'en', 'fr'];
/** Elements whose content is text only, read as a whole when they close. */
const TEXT_ONLY = new Set(['say-as', 'sub', 'phoneme']);

class SsmlError extends Error {
  constructor(
    message: string,
    readonly element: string | null,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

interface Open {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly rate: number;
  /** The language its words are said as, from the innermost `lang`; undefined outside any. */
  readonly wordLanguage: LanguageCode | undefined;
  /** Where the element's "<" is in the input. */
  readonly offset: number;
  /** The text of a text-only element. */
  text: string;
}

/** Who will speak the document: its language, and how its voice reads IPA (`phoneme`), if it does. */
export interface SsmlSpeaker {
  readonly language: LanguageCode;
  readonly readIpa?: (ipa: string) => IpaReading;
}

/**
 * Reads `input`, a `<speak>` document, as a speech document for `speaker`, or says what is
 * wrong with it: the element, and the line and column where it starts.
 */
export function parseSsml(input: string, speaker: SsmlSpeaker): SsmlResult {
  try {
    return { ok: true, document: new Reader(speaker).read(input) };
  } catch (error) {
    if (error instanceof SsmlError) {
      const { message, element, line, column } = error;
      return { ok: false, error: { message, element, line, column } };
    }
    throw error;
  }
}

/** 1-based line and column (in characters) of `offset` in `text`. */
function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: codePointCount(lines.at(-1) ?? '') + 1 };
}

class Reader {
  readonly #language: LanguageCode;
  readonly #segments: SpeechSegment[] = [];
  readonly #stack: Open[] = [];
  #spoken = 0;
  #breaksMs = 0;
  #sawRoot = false;
  /** A sentence or paragraph ended: the next text starts a new segment. */
  #boundary = false;
  #paragraphPending = false;
  /** Where the element being opened starts, in the input: a position is worked out only for an error. */
  #tagOffset = 0;
  #input = '';
  readonly #readIpa: ((ipa: string) => IpaReading) | undefined;

  constructor(speaker: SsmlSpeaker) {
    this.#language = speaker.language;
    this.#readIpa = speaker.readIpa;
  }

  read(input: string): SpeechDocument {
    this.#input = input;
    const parser = new SaxesParser({ position: true, xmlns: false });
    // saxes reports events once it has read past them; positions are found in the input instead.
    const startOf = (marker: string) => input.lastIndexOf(marker, parser.position - 1);
    const fail = (message: string, offset = parser.position - 1): never => {
      const { line, column } = positionAt(input, offset);
      throw new SsmlError(message, null, line, column);
    };
    parser.on('error', (error) => {
      // saxes prefixes "line:column: "; the position is reported apart.
      fail(`the SSML is not well-formed XML: ${error.message.replace(/^\d+:\d+: /, '')}`);
    });
    parser.on('doctype', () => fail('a DOCTYPE is not allowed in SSML', startOf('<!DOCTYPE')));
    parser.on('processinginstruction', () =>
      fail('processing instructions are not allowed in SSML', startOf('<?')),
    );
    parser.on('cdata', () =>
      fail('CDATA sections are not allowed in SSML; write the text as text', startOf('<![CDATA[')),
    );
    parser.on('opentagstart', () => {
      this.#tagOffset = startOf('<');
    });
    parser.on('opentag', (tag) => this.#open(tag));
    parser.on('closetag', (tag) => this.#close(tag.name));
    parser.on('text', (text) => {
      const forbidden = firstForbiddenCharacter(text);
      if (forbidden) fail(`the SSML holds the control character ${forbidden.name}, which no text may hold`);
      if (this.#stack.length === 0 && text.trim() !== '') fail('text must be inside <speak>');
      this.#text(text);
    });
    parser.write(input).close();
    if (!this.#sawRoot) fail('the SSML must be one <speak> element');
    return { segments: this.#segments.map(collapse), spokenCharacters: this.#spoken };
  }

  #error(element: string, message: string, at?: Pick<Open, 'offset'>): SsmlError {
    const { line, column } = positionAt(this.#input, at?.offset ?? this.#tagOffset);
    return new SsmlError(`<${element}> at line ${line}, column ${column}: ${message}`, element, line, column);
  }

  #open(tag: SaxesTagPlain): void {
    const { name } = tag;
    const attributes = tag.attributes;
    const parent = this.#stack.at(-1);
    if (parent === undefined && name !== 'speak') throw this.#error(name, 'the root element must be <speak>');
    if (name === 'speak' && parent !== undefined) throw this.#error(name, '<speak> is only the root element');
    const allowed = ATTRIBUTES[name];
    if (allowed === undefined) {
      throw this.#error(
        name,
        `unknown element; Ijwi reads ${Object.keys(ATTRIBUTES)
          .map((e) => `<${e}>`)
          .join(', ')}`,
      );
    }
    if (parent && TEXT_ONLY.has(parent.name)) throw this.#error(name, `<${parent.name}> holds text only`);
    if (parent?.name === 'break') throw this.#error(name, '<break> must be empty');
    const inside = this.#stack.find((open) => NOT_INSIDE[open.name]?.includes(name));
    if (inside) throw this.#error(name, `<${name}> cannot be inside <${inside.name}>`);
    if (this.#stack.length >= MAX_DEPTH) throw this.#error(name, `elements nest at most ${MAX_DEPTH} deep`);
    for (const [attribute, value] of Object.entries(attributes)) {
      const forbidden = firstForbiddenCharacter(value);
      if (forbidden) throw this.#error(name, `${attribute} holds the control character ${forbidden.name}`);
      const namespace = name === 'speak' && attribute.startsWith('xmlns:');
      if (!allowed.includes(attribute) && !namespace) {
        const known = allowed.length > 0 ? allowed.join(', ') : 'none';
        throw this.#error(name, `unknown attribute "${attribute}"; <${name}> takes ${known}`);
      }
    }
    const lang = attributes['xml:lang'];
    if (lang !== undefined && !isLanguageTag(lang)) {
      // Not echoed: a hostile tag may hold bidirectional or invisible characters.
      throw this.#error(name, 'xml:lang is not a well-formed BCP 47 language tag (such as en, en-US, rw-RW)');
    }
    const primary = lang?.split('-')[0]?.toLowerCase();
    if (name === 'lang') {
      if (lang === undefined) throw this.#error(name, `needs xml:lang: ${WORD_LANGUAGES.join(', ')}`);
      if (!WORD_LANGUAGES.some((l) => l === primary))
        throw this.#error(
          name,
          `xml:lang "${lang}" is not a language Ijwi says; use ${WORD_LANGUAGES.join(', ')} or a tag of one (en-US)`,
        );
    } else if (lang !== undefined && primary !== this.#language) {
      throw this.#error(name, `xml:lang "${lang}" is not the request's language, "${this.#language}"`);
    }
    this.#sawRoot = true;
    const open: Open = {
      name,
      attributes,
      rate: name === 'prosody' ? this.#rateOf(attributes.rate, parent?.rate ?? 1) : (parent?.rate ?? 1),
      wordLanguage: name === 'lang' ? WORD_LANGUAGES.find((l) => l === primary) : parent?.wordLanguage,
      offset: this.#tagOffset,
      text: '',
    };
    this.#stack.push(open);
    if (name === 'p' || name === 's') this.#endSentence();
    if (name === 'break') this.#break(open);
    if (name === 'sub' && (attributes.alias ?? '').trim() === '') throw this.#error(name, 'needs an alias');
    if (name === 'phoneme') this.#checkPhoneme(open);
    if (name === 'say-as') this.#checkSayAs(open);
  }

  #close(name: string): void {
    const open = this.#stack.pop();
    if (open === undefined) return;
    switch (name) {
      case 'p':
        this.#endSentence();
        this.#paragraphPending = true;
        break;
      case 's':
        this.#endSentence();
        break;
      case 'say-as':
        this.#sayAs(open);
        break;
      case 'sub':
        this.#speakText((open.attributes.alias ?? '').trim(), open, true);
        break;
      case 'phoneme':
        this.#phoneme(open);
        break;
    }
  }

  /** Text inside an element (whitespace around the root was let through by the caller). */
  #text(text: string): void {
    const open = this.#stack.at(-1);
    if (open === undefined) return;
    if (TEXT_ONLY.has(open.name)) open.text += text;
    else if (open.name === 'break') throw this.#error('break', 'must be empty', open);
    else this.#speakText(text, open, false);
  }

  #rateOf(value: string | undefined, inherited: number): number {
    if (value === undefined) return inherited;
    const named = RATES[value.trim()];
    if (named !== undefined) return named;
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(value.trim());
    const rate = percent ? Number(percent[1]) / 100 : Number.NaN;
    if (!(rate >= MIN_RATE && rate <= MAX_RATE)) {
      throw this.#error(
        'prosody',
        `rate "${value}" is out of range; use x-slow, slow, medium, fast, x-fast or ${MIN_RATE * 100}%-${MAX_RATE * 100}%`,
      );
    }
    return rate;
  }

  #break(open: Open): void {
    const { time, strength } = open.attributes;
    let ms: number;
    if (time !== undefined) {
      const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/.exec(time);
      if (!match) throw this.#error('break', `time "${time}" must be a duration such as 500ms or 1.5s`);
      ms = Math.round(Number(match[1]) * (match[2] === 's' ? 1000 : 1));
      if (ms > MAX_BREAK_MS)
        throw this.#error('break', `time "${time}" is over the ${MAX_BREAK_MS / 1000} s a break may last`);
    } else if (strength !== undefined) {
      const named = STRENGTHS[strength];
      if (named === undefined)
        throw this.#error(
          'break',
          `strength "${strength}" must be one of ${Object.keys(STRENGTHS).join(', ')}`,
        );
      ms = named;
    } else {
      ms = STRENGTHS.medium ?? 400;
    }
    this.#breaksMs += ms;
    if (this.#breaksMs > MAX_BREAKS_MS_PER_REQUEST) {
      throw this.#error(
        'break',
        `the breaks add up to over the ${MAX_BREAKS_MS_PER_REQUEST / 1000} s a request may pause`,
      );
    }
    if (ms > 0) this.#push({ kind: 'break', ms });
  }

  #checkSayAs(open: Open): void {
    const as = open.attributes['interpret-as'];
    if (as === undefined || !(interpretations as readonly string[]).includes(as))
      throw this.#error('say-as', `interpret-as must be one of ${interpretations.join(', ')}`);
    const format = open.attributes.format;
    if (format !== undefined && (as !== 'date' || !(dateFormats as readonly string[]).includes(format)))
      throw this.#error('say-as', `format is for dates only: ${dateFormats.join(', ')}`);
  }

  #sayAs(open: Open): void {
    const as = open.attributes['interpret-as'] as Interpretation;
    const format = (open.attributes.format ?? 'dmy') as DateFormat;
    const content = open.text.replace(/\s+/g, ' ').trim();
    const read = readSayAs(content, as, this.#language, format);
    if (!read.ok) throw this.#error('say-as', read.message, open);
    this.#spoken += codePointCount(content);
    this.#startContent();
    this.#push({ kind: 'words', text: read.words, rate: open.rate });
  }

  #checkPhoneme(open: Open): void {
    const { alphabet, ph } = open.attributes;
    if (alphabet !== 'ipa') throw this.#error('phoneme', 'alphabet must be "ipa"');
    if (ph === undefined || ph.trim() === '') throw this.#error('phoneme', 'needs the IPA in ph');
    if (codePointCount(ph) > MAX_PHONEME_CHARACTERS) {
      throw this.#error(
        'phoneme',
        `ph holds over the ${MAX_PHONEME_CHARACTERS} characters a phoneme may; give a phoneme per word or phrase`,
      );
    }
    if (!this.#readIpa)
      throw this.#error(
        'phoneme',
        'this voice speaks text only; write the word, or give a sub alias that spells it',
      );
    const converted = this.#readIpa(ph);
    if (!converted.ok) {
      throw this.#error(
        'phoneme',
        `the IPA symbol "${converted.symbol}" is not one the ${this.#language} voices can say`,
      );
    }
  }

  #phoneme(open: Open): void {
    const ipa = (open.attributes.ph ?? '').trim();
    const content = open.text.replace(/\s+/g, ' ').trim();
    this.#spoken += codePointCount(content === '' ? ipa : content);
    this.#startContent();
    this.#push({ kind: 'phonemes', ipa, rate: open.rate });
  }

  /**
   * Text to be read as written; merged into the text before it when nothing separates them, so a
   * `lang` inside a sentence stays in its sentence's segment (one utterance): its words are only
   * marked as that language's (`markWords`), after they are counted, as marks are not text. An
   * alias is kept apart from the words around it by spaces, as its element kept it.
   */
  #speakText(
    text: string,
    { rate, wordLanguage }: Pick<Open, 'rate' | 'wordLanguage'>,
    alias: boolean,
  ): void {
    if (text.trim() === '') {
      const last = this.#segments.at(-1);
      if (last?.kind === 'text' && !this.#boundary)
        this.#segments[this.#segments.length - 1] = { ...last, text: `${last.text} ` };
      return;
    }
    this.#spoken += codePointCount(text.replace(/\s+/g, ' ').trim());
    const said = wordLanguage === undefined ? text : markWords(text, wordLanguage);
    const spaced = alias ? ` ${said} ` : said;
    this.#startContent();
    const last = this.#segments.at(-1);
    if (last?.kind === 'text' && last.rate === rate && !this.#boundary) {
      this.#segments[this.#segments.length - 1] = { ...last, text: `${last.text}${spaced}` };
    } else {
      this.#push({ kind: 'text', text: spaced, rate });
    }
    this.#boundary = false;
  }

  /** Before new content: the pause of a paragraph that ended. */
  #startContent(): void {
    if (this.#paragraphPending && this.#segments.length > 0) this.#push({ kind: 'break', ms: PARAGRAPH_MS });
    this.#paragraphPending = false;
  }

  /**
   * A sentence ends here: the text before it gets a full stop if it has no end mark (in place of
   * a clause mark it ends with), and the next text starts a segment of its own.
   */
  #endSentence(): void {
    const last = this.#segments.at(-1);
    if (last?.kind === 'text' && last.text.trim() !== '' && !SENTENCE_END.test(last.text)) {
      const text = `${last.text.replace(CLAUSE_END, '').trimEnd()}.`;
      this.#segments[this.#segments.length - 1] = { ...last, text };
    }
    this.#boundary = true;
  }

  #push(segment: SpeechSegment): void {
    this.#segments.push(segment);
    this.#boundary = segment.kind !== 'text';
  }
}

function collapse(segment: SpeechSegment): SpeechSegment {
  return segment.kind === 'text' || segment.kind === 'words'
    ? { ...segment, text: segment.text.replace(/\s+/g, ' ').trim() }
    : segment;
}
