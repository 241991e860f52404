import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { readCatalogues } from '../../src/web/i18n/catalogue.ts';
import { SITE_LANGUAGES } from '../../src/web/i18n/languages.ts';
import type { PageText } from './page-checks.ts';

// Whether a text on a page is one of its language's catalogue messages, or a piece of one. A
// message becomes text nodes split wherever markup goes: at its tags, and at arguments whose value
// is markup (a link, a code element). So a text on a page must be a run of whole pieces of one
// message (literal words and argument values) in the language the page says it is in.

type Token = { readonly literal: string } | { readonly argument: true } | { readonly boundary: true };

/** Every way a message can read, as tokens: one list per choice of its plural and select branches. */
function readings(elements: readonly MessageFormatElement[]): Token[][] {
  let results: Token[][] = [[]];
  const append = (options: Token[][]) => {
    results = results.flatMap((before) => options.map((after) => [...before, ...after]));
  };
  for (const element of elements) {
    switch (element.type) {
      case TYPE.literal:
        append([[{ literal: element.value }]]);
        break;
      case TYPE.plural:
      case TYPE.select:
        append(Object.values(element.options).flatMap((option) => readings(option.value)));
        break;
      case TYPE.tag:
        append(readings(element.children).map((inner) => [{ boundary: true }, ...inner, { boundary: true }]));
        break;
      default:
        append([[{ argument: true }]]);
    }
  }
  return results;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normal = (text: string) => text.replace(/\s+/g, ' ');
const hasLetter = (text: string) => /\p{L}/u.test(text);

interface Piece {
  readonly pattern: RegExp;
  /** Its longest literal, which a text must contain before the pattern is tried. */
  readonly needle: string;
  /** Whether any of its literal words has a letter: else only its argument values say what language it is. */
  readonly worded: boolean;
}

/** Every run of whole tokens between two tag boundaries, as an anchored pattern. */
function pieces(tokens: readonly Token[]): Piece[] {
  const runs: Token[][] = [[]];
  for (const token of tokens) {
    if ('boundary' in token) runs.push([]);
    else runs.at(-1)?.push(token);
  }
  const found: Piece[] = [];
  for (const run of runs) {
    for (let start = 0; start < run.length; start++) {
      for (let end = start + 1; end <= run.length; end++) {
        const slice = run.slice(start, end);
        const source = slice
          .map((t) => ('literal' in t ? escapeRegExp(normal(t.literal)) : '(.+?)'))
          .join('');
        const literals = slice.flatMap((t) => ('literal' in t ? [t.literal] : []));
        const needle = literals.map((l) => normal(l).trim()).sort((a, b) => b.length - a.length)[0] ?? '';
        found.push({
          pattern: new RegExp(`^${source.trim()}$`, 'u'),
          needle,
          worded: literals.some(hasLetter),
        });
      }
    }
  }
  return found;
}

/**
 * What a page's texts may be, per language: pieces of the catalogue's messages. `names` are
 * words that are no language's (voice names, the account's own data): an argument may be one.
 */
export function catalogueMatcher(names: readonly string[]) {
  const catalogues = readCatalogues();
  const byLanguage = new Map<string, { pieces: Piece[]; whole: Set<string> }>();
  for (const language of SITE_LANGUAGES) {
    const messages = Object.values(catalogues[language]).map(String);
    const all = messages.flatMap((source) =>
      readings(parse(source, { requiresOtherClause: true })).flatMap(pieces),
    );
    // Each pattern once: a reading's pieces repeat across its branches.
    const unique = new Map(all.map((piece) => [`${piece.worded} ${piece.pattern.source}`, piece]));
    byLanguage.set(language, {
      pieces: [...unique.values()],
      whole: new Set(
        messages.filter((m) => !m.includes('{') && !m.includes('<')).map((m) => normal(m).trim()),
      ),
    });
  }
  const known = new Set(names);
  /** Why `text` is not its language's words, or undefined when it is. */
  return (text: PageText): string | undefined => {
    if (!hasLetter(text.text) || known.has(text.text)) return undefined;
    const catalogue = byLanguage.get(text.lang);
    if (!catalogue)
      return `${text.where}: "${text.text}" is in "${text.lang}", which the site has no words for`;
    const value = (captured: string) =>
      !hasLetter(captured) || known.has(captured) || catalogue.whole.has(captured);
    const ok = catalogue.pieces.some((piece) => {
      if (!text.text.includes(piece.needle)) return false;
      const match = piece.pattern.exec(text.text);
      // A piece with no word of its own is the language's only through its argument values.
      return match !== null && (piece.worded || match.slice(1).every((captured) => value(captured ?? '')));
    });
    return ok ? undefined : `${text.where}: "${text.text}" is not in the ${text.lang} catalogue`;
  };
}
