import { SaxesParser, type SaxesTagNS } from 'saxes';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { languages } from '../speech/voices/voices.ts';
import type { LexiconEntry } from './dictionary-repository.ts';
import type { LexiconInput } from './lexicons.ts';

// W3C Pronunciation Lexicon Specification (PLS) 1.0, read and written. A PLS file is one
// language's lexicon: each <lexeme> gives one or more <grapheme>s (the phrases) and its
// pronunciations, <phoneme> (IPA) or <alias> (a respelling); the one with prefer="true", else the
// first, is the one an entry keeps. The word-language extension rides on <lexeme> in Ijwi's
// namespace. Parsed with saxes, as SSML is: no DOCTYPE (so no entity can be declared, and none
// but XML's five and character references can be used), no external reference, no processing
// instruction; the bytes and lexemes are counted before anything is kept.

/** The PLS namespace. */
export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';
/** Ijwi's namespace for its extension attributes (`ijwi:word-language` on <lexeme>). */
export const IJWI_PLS_NAMESPACE = 'https://ijwi.rw/ns/pls/1.0';
/** Bytes of a PLS file (UTF-8). */
export const MAX_PLS_BYTES = 1024 * 1024;
/** The media type of a PLS file. */
export const PLS_MEDIA_TYPE = 'application/pls+xml';

/** A PLS file read: its language, and an entry per grapheme with the line of its lexeme. */
export type PlsReading =
  | {
      readonly ok: true;
      readonly language: LanguageCode;
      readonly entries: readonly (LexiconInput & { readonly line: number })[];
    }
  | { readonly ok: false; readonly message: string; readonly line: number | null };

class PlsError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

// What each element may hold; <metadata> holds anything (RDF, Dublin Core) and is skipped.
const CHILDREN: Readonly<Record<string, readonly string[]>> = {
  lexicon: ['meta', 'metadata', 'lexeme'],
  lexeme: ['grapheme', 'phoneme', 'alias', 'example'],
  meta: [],
  grapheme: [],
  phoneme: [],
  alias: [],
  example: [],
};

interface Lexeme {
  readonly line: number;
  readonly graphemes: string[];
  readonly pronunciations: { kind: 'ipa' | 'respelling'; says: string; prefer: boolean }[];
  readonly wordLanguage: string | undefined;
}

/** The language of an `xml:lang` tag (`en-US` is `en`), if Ijwi speaks it. */
function languageOf(tag: string): LanguageCode | undefined {
  const primary = tag.split('-')[0]?.toLowerCase();
  return languages.find((l) => l.code === primary)?.code;
}

/**
 * Reads a PLS 1.0 file into dictionary entries of its language, or says what is wrong and on
 * which line. At most `maxLexemes` lexemes; a grapheme that an earlier lexeme already gave is
 * said as that one says it (as a PLS processor picks the first).
 */
export function readPls(text: string, maxLexemes: number): PlsReading {
  if (Buffer.byteLength(text, 'utf8') > MAX_PLS_BYTES)
    return { ok: false, message: `a PLS file has at most ${MAX_PLS_BYTES} bytes`, line: null };
  const parser = new SaxesParser({ xmlns: true, position: true });
  const fail = (message: string): never => {
    throw new PlsError(message, parser.line);
  };
  let language: LanguageCode | undefined;
  let alphabet = 'ipa';
  const stack: string[] = [];
  let skipping = 0;
  let lexeme: Lexeme | undefined;
  let textOf: { name: string; text: string; prefer: boolean; alphabet: string } | undefined;
  const lexemes: Lexeme[] = [];
  try {
    parser.on('error', (error) => fail(`not well-formed XML: ${error.message.replace(/^\d+:\d+: /, '')}`));
    parser.on('doctype', () => {
      // Named where it starts: saxes reports it where it ends, after any entity declarations.
      const lines = text.slice(0, Math.max(0, text.indexOf('<!DOCTYPE'))).split(/\r\n|\r|\n/).length;
      throw new PlsError('a DOCTYPE is not allowed: PLS needs no entities or DTD', lines);
    });
    parser.on('processinginstruction', () => fail('processing instructions are not allowed'));
    parser.on('opentag', (tag: SaxesTagNS) => {
      if (skipping > 0) {
        skipping++;
        return;
      }
      const name = tag.local;
      const parent = stack.at(-1);
      if (tag.uri !== PLS_NAMESPACE && tag.uri !== '')
        fail(`<${tag.name}> is not a PLS element (namespace ${PLS_NAMESPACE})`);
      if (parent === undefined) {
        if (name !== 'lexicon') fail('the root element must be <lexicon>');
        const version = tag.attributes.version?.value;
        if (version !== '1.0') fail('<lexicon> must have version="1.0"');
        const lang = tag.attributes['xml:lang']?.value;
        if (lang === undefined) fail('<lexicon> must have xml:lang');
        language = languageOf(lang ?? '');
        if (language === undefined)
          fail(
            `xml:lang "${lang}" is not a language Ijwi speaks (${languages.map((l) => l.code).join(', ')})`,
          );
        alphabet = tag.attributes.alphabet?.value ?? fail('<lexicon> must have alphabet="ipa"');
      } else {
        const allowed = CHILDREN[parent] ?? [];
        if (!allowed.includes(name)) fail(`<${name}> cannot be inside <${parent}>`);
      }
      if (name === 'metadata') {
        skipping = 1;
        return;
      }
      stack.push(name);
      if (name === 'lexeme') {
        if (lexemes.length >= maxLexemes) fail(`a PLS file has at most ${maxLexemes} lexemes`);
        const word = Object.values(tag.attributes).find((a) => a.uri === IJWI_PLS_NAMESPACE);
        if (word !== undefined && word.local !== 'word-language')
          fail(`unknown attribute ${word.name}; Ijwi's namespace has word-language`);
        lexeme = { line: parser.line, graphemes: [], pronunciations: [], wordLanguage: word?.value };
      }
      if (name === 'grapheme' || name === 'phoneme' || name === 'alias') {
        const prefer = tag.attributes.prefer?.value;
        if (prefer !== undefined && prefer !== 'true' && prefer !== 'false')
          fail('prefer must be "true" or "false"');
        textOf = {
          name,
          text: '',
          prefer: prefer === 'true',
          alphabet: tag.attributes.alphabet?.value ?? alphabet,
        };
      }
    });
    parser.on('text', (text) => {
      if (skipping > 0) return;
      if (textOf !== undefined) textOf.text += text;
      else if (text.trim() !== '' && stack.at(-1) !== 'example' && stack.at(-1) !== 'meta')
        fail(`text is not allowed in <${stack.at(-1) ?? 'the document'}>`);
    });
    parser.on('cdata', (text) => {
      if (textOf !== undefined) textOf.text += text;
    });
    parser.on('closetag', () => {
      if (skipping > 0) {
        skipping--;
        return;
      }
      const name = stack.pop();
      if (textOf !== undefined && name === textOf.name && lexeme !== undefined) {
        const value = textOf.text.trim();
        if (value === '') fail(`<${name}> is empty`);
        if (name === 'grapheme') lexeme.graphemes.push(value);
        else if (name === 'alias')
          lexeme.pronunciations.push({ kind: 'respelling', says: value, prefer: textOf.prefer });
        else {
          if (textOf.alphabet !== 'ipa')
            fail(`alphabet "${textOf.alphabet}" is not supported; Ijwi reads IPA (alphabet="ipa")`);
          lexeme.pronunciations.push({ kind: 'ipa', says: value, prefer: textOf.prefer });
        }
        textOf = undefined;
      }
      if (name === 'lexeme' && lexeme !== undefined) {
        if (lexeme.graphemes.length === 0) fail('a <lexeme> needs a <grapheme>');
        if (lexeme.pronunciations.length === 0) fail('a <lexeme> needs a <phoneme> or an <alias>');
        lexemes.push(lexeme);
        lexeme = undefined;
      }
    });
    parser.write(text).close();
  } catch (error) {
    if (error instanceof PlsError) return { ok: false, message: error.message, line: error.line };
    throw error;
  }
  if (language === undefined) return { ok: false, message: 'the file holds no <lexicon>', line: null };
  const entries: (LexiconInput & { line: number })[] = [];
  const seen = new Set<string>();
  for (const item of lexemes) {
    const chosen = item.pronunciations.find((p) => p.prefer) ?? item.pronunciations[0];
    if (chosen === undefined) continue;
    for (const grapheme of item.graphemes) {
      const key = grapheme.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ');
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({
        language,
        phrase: grapheme,
        kind: chosen.kind,
        says: chosen.says,
        wordLanguage: item.wordLanguage,
        line: item.line,
      });
    }
  }
  return { ok: true, language, entries };
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The entries of `language` as a PLS 1.0 file: a lexeme per entry, in order. */
export function writePls(language: LanguageCode, entries: readonly LexiconEntry[]): string {
  const lexemes = entries
    .filter((e) => e.language === language)
    .map((e) => {
      const word = e.wordLanguage === null ? '' : ` ijwi:word-language="${e.wordLanguage}"`;
      const says =
        e.kind === 'ipa' ? `<phoneme>${escapeXml(e.says)}</phoneme>` : `<alias>${escapeXml(e.says)}</alias>`;
      return `  <lexeme${word}>\n    <grapheme>${escapeXml(e.phrase)}</grapheme>\n    ${says}\n  </lexeme>\n`;
    })
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" xmlns:ijwi="${IJWI_PLS_NAMESPACE}" alphabet="ipa" xml:lang="${language}">\n` +
    `${lexemes}</lexicon>\n`
  );
}
