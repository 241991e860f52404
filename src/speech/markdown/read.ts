/**
 * A reply written by a language model, read as a person reading the rendered reply aloud would
 * say it: the Markdown (CommonMark with GitHub's tables, task lists and strikethrough) is parsed
 * by `marked`'s lexer and its tokens walked into the one speech document (`../document.ts`).
 * Plain text is Markdown without markup, so every plain `text` request is read here. Contract:
 * api-v1.md, "Text written by a language model (decided)"; the rules are in this folder's README.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { codePointCount } from '../../unicode.ts';
import type { SpeechDocument, SpeechSegment } from '../input/document.ts';
import { protectLiteralSymbols, restoreLiteralSymbols } from './literal-symbols.ts';

/** The pause of a thematic break (`---`), as SSML's `strong` break. */
export const RULE_PAUSE_MS = 700;

const OPTIONS = { gfm: true } as const;

function tokensOf(text: string): Token[] {
  return new Lexer(OPTIONS).lex(protectLiteralSymbols(text));
}

/**
 * The most text parsed at once. The lexer's emphasis and nesting passes grow faster than the text
 * (one core: 2,000 characters of `_a` take 4 ms, 10,000 take 250 ms), and the parse runs on the
 * thread that serves every call, so a long reply is read in sections cut between blocks.
 */
export const SECTION_CHARS = 2_000;

/** A reply as a speech document: its blocks as sentences, its markup never spoken. */
export function markdownDocument(text: string): SpeechDocument {
  const reader = new BlockReader();
  for (const section of sections(text.trim())) {
    try {
      reader.blocks(tokensOf(section));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      // Nesting deeper than the parser's stack (thousands of `>`): read as one text, markers dropped.
      reader.text(protectLiteralSymbols(section));
    }
  }
  return reader.document();
}

/**
 * `text` in sections of at most `SECTION_CHARS`, each cut after its last blank line, else its
 * last line break, else its last space; a fenced code block a cut leaves open is opened again
 * for the next section, so code stays code.
 */
function sections(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > SECTION_CHARS) {
    const part = rest.slice(0, sectionEnd(rest.slice(0, SECTION_CHARS)));
    out.push(part);
    const fence = FENCE_OPENER.test(part) ? unclosedFence(part) : undefined;
    rest = (fence !== undefined && fence.length < part.length ? fence : '') + rest.slice(part.length);
  }
  out.push(rest);
  return out;
}

const FENCE_OPENER = /^ {0,3}(?:`{3,}|~{3,})/mu;

function sectionEnd(head: string): number {
  for (const mark of ['\n\n', '\n', ' ']) {
    const at = head.lastIndexOf(mark);
    if (at > 0) return at + mark.length;
  }
  // Never between the two halves of a surrogate pair.
  return /[\uD800-\uDBFF]/u.test(head.charAt(head.length - 1)) ? head.length - 1 : head.length;
}

/**
 * Whether a Markdown construct is still open at the end of `text`, so that text arriving later
 * could change how the end is read: an emphasis, code span, link or HTML tag begun and not
 * closed, a fenced code block not closed, or a table (whose next row may follow). The live
 * clause cutter asks this before it cuts (`../text/live-clauses.ts`).
 */
export function markdownOpenAtEnd(text: string): boolean {
  const last = lastBlock(text);
  return last !== undefined && blockIsOpen(last);
}

/** The last block token of `text`; none where nesting is deeper than the parser's stack. */
function lastBlock(text: string): Tokens.Generic | undefined {
  try {
    return tokensOf(text).at(-1) as Tokens.Generic | undefined;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Walks block tokens into sentences (one per heading, paragraph, list item, table row) and pauses. */
class BlockReader {
  readonly #segments: SpeechSegment[] = [];
  /** Sentences since the last pause, spoken as one text segment, a line each. */
  #lines: string[] = [];
  #spoken = 0;

  blocks(tokens: readonly Token[]): void {
    for (const token of tokens) this.#block(token as Tokens.Generic);
  }

  /** Literal text as one sentence, its markers dropped. */
  text(literal: string): void {
    this.#line(cleanText(literal));
  }

  document(): SpeechDocument {
    this.#endRun();
    return { segments: this.#segments, spokenCharacters: this.#spoken };
  }

  #block(token: Tokens.Generic): void {
    switch (token.type) {
      case 'heading':
      case 'paragraph':
        this.#line(inlineText(token.tokens ?? []));
        break;
      case 'text':
        // Tight list items hold their text as a `text` block with inline tokens.
        this.#line(token.tokens ? inlineText(token.tokens) : cleanText(token.text ?? ''));
        break;
      case 'blockquote':
        this.blocks(token.tokens ?? []);
        break;
      case 'list':
        for (const item of (token as Tokens.List).items) this.blocks(item.tokens);
        break;
      case 'table': {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows]) {
          this.#line(
            row
              .map((cell) => inlineText(cell.tokens))
              .filter(hasWords)
              .join(', '),
          );
        }
        break;
      }
      case 'html':
        // A block of HTML shows its text, not its tags or comments.
        this.#line(cleanText(htmlText(token.text ?? '')));
        break;
      case 'hr':
        this.#endRun();
        this.#segments.push({ kind: 'break', ms: RULE_PAUSE_MS });
        break;
      // Fenced and indented code, link definitions and blank lines are not said.
      default:
        break;
    }
  }

  #line(text: string): void {
    const line = withoutTableBars(restoreLiteralSymbols(text))
      .replace(/[ \t]+/g, ' ')
      .trim();
    if (line === '') return;
    this.#lines.push(line);
    this.#spoken += codePointCount(line.replace(/\s+/g, ' '));
  }

  #endRun(): void {
    if (this.#lines.length === 0) return;
    this.#segments.push({ kind: 'text', text: this.#lines.join('\n'), rate: 1 });
    this.#lines = [];
  }
}

/** What a run of inline tokens says: text, code, link text; not struck-out text, images or tags. */
function inlineText(tokens: readonly Token[]): string {
  let out = '';
  let previous: Tokens.Generic | undefined;
  for (const token of tokens as readonly Tokens.Generic[]) {
    // An address right after `](` is an unclosed link's, found by the autolink extension: unsaid.
    const unclosedDestination = previous?.type === 'text' && previous.raw.endsWith('](');
    previous = token;
    if (unclosedDestination && token.type === 'link') continue;
    switch (token.type) {
      case 'text':
        out += token.tokens ? inlineText(token.tokens) : cleanText(token.text ?? '');
        break;
      case 'escape':
      case 'codespan':
        // What the writer marked as literal is said as written (a code span's `*182#` too).
        out += token.text ?? '';
        break;
      case 'strong':
      case 'em':
      case 'link':
        out += inlineText(token.tokens ?? []);
        break;
      case 'br':
        out += '\n';
        break;
      case 'html':
        // A tag is not said; a line break tag breaks the line, as it shows.
        if (/^<br\s*\/?>$/iu.test(token.text ?? '')) out += '\n';
        break;
      // Struck-out text, images and task checkboxes are not said.
      default:
        break;
    }
  }
  return out;
}

// Pictographs with their joiners, variation selectors, skin tones, keycap marks and flags.
const EMOJI = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}\u{1F1E6}-\u{1F1FF}]|\u200D|\uFE0F|\u20E3/gu;
// Markers the parser left as text because nothing closed them (a reply cut short, a stray one):
// a footnote's mark, emphasis and code markers, brackets, an unclosed link's address, a word's
// edge underscores.
const STRAY_MARKERS = /\[\^[^\]\s]*\]|\]\([^\s)]*\)?|[*~`[\]]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;
// A table's cell bars and delimiter row, in a row read without its table (a live part): the
// bars at a line's ends, the bars between cells, the dashes and colons of a delimiter row.
const EDGE_BARS = /^[ \t]*\|[ \t]*|[ \t]*\|[ \t]*$/gmu;
const INNER_BARS = /[ \t]*\|[ \t]*/gu;
const DELIMITER_RUNS = /(?<![\p{L}\p{N}])[-:]{2,}(?![\p{L}\p{N}])/gu;
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Literal text of a token: entities decoded, emoji and stray markers dropped. */
function cleanText(text: string): string {
  return decodeEntities(text).replace(EMOJI, '').replace(STRAY_MARKERS, '');
}

/** A row of a table read without its table, as the table reads it: cells apart by commas. */
function withoutTableBars(line: string): string {
  return line.replace(EDGE_BARS, '').replace(INNER_BARS, ', ').replace(DELIMITER_RUNS, ' ');
}

/** The few HTML entities replies hold (`&amp;`, `&#39;`...); the parser keeps them as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|([a-z]+));/giu, (entity, decimal, hex, name) => {
    const code =
      decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
    return ENTITIES[String(name).toLowerCase()] ?? entity;
  });
}

/** The text a block of HTML shows: tags and comments dropped. */
function htmlText(html: string): string {
  return html.replace(/<!--[\s\S]*?(?:-->|$)|<[^>]*>?/gu, ' ');
}

function hasWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** Whether the last block of a text may still change with what follows (see `markdownOpenAtEnd`). */
function blockIsOpen(token: Tokens.Generic): boolean {
  switch (token.type) {
    case 'code':
      return fenceLeftOpen(token.raw) !== undefined;
    case 'table':
      return true;
    case 'list': {
      const last = (token as Tokens.List).items.at(-1);
      const inner = last?.tokens.at(-1);
      return inner !== undefined && blockIsOpen(inner as Tokens.Generic);
    }
    case 'blockquote': {
      const inner = token.tokens?.at(-1);
      return inner !== undefined && blockIsOpen(inner as Tokens.Generic);
    }
    case 'heading':
    case 'paragraph':
    case 'text':
      return OPENERS.test(literalText(token.tokens ?? []));
    default:
      return false;
  }
}

/**
 * The opening line of a fenced code block that `text` leaves open, with its line break; undefined
 * when it leaves none. Text cut inside such a block is read with this line before the rest, so
 * the rest stays code (not said).
 */
export function unclosedFence(text: string): string | undefined {
  const last = lastBlock(text);
  return last?.type === 'code' ? fenceLeftOpen(last.raw) : undefined;
}

/** A fenced block whose closing fence has not arrived (the lexer runs it to the end): its first line. */
function fenceLeftOpen(raw: string): string | undefined {
  const opening = /^ {0,3}(`{3,}|~{3,})[^\n]*/u.exec(raw);
  const fence = opening?.[1];
  if (opening === null || fence === undefined) return undefined;
  const lines = raw.trimEnd().split('\n');
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'u');
  return lines.length < 2 || !closing.test(lines.at(-1) ?? '') ? `${opening[0]}\n` : undefined;
}

/** The text the parser left literal in inline tokens; anything it did parse stands as `x`. */
function literalText(tokens: readonly Token[]): string {
  return (tokens as readonly Tokens.Generic[])
    .map((t) => (t.type === 'text' ? (t.tokens ? literalText(t.tokens) : (t.text ?? '')) : 'x'))
    .join('');
}

// Markers that open a construct when something follows them: emphasis and strikethrough runs
// before a non-space, a code span's backtick, a link's bracket, an HTML tag's `<`.
const OPENERS =
  /(?<![\p{L}\p{N}])[*_~]+(?=\S)|\*+(?=\S)|~+(?=\S)|`|\[(?![^\]]*\])|\]\((?![^)]*\))|<[a-z/!](?![^>]*>)/iu;
