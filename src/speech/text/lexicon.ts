import { codePointCount } from '../../unicode.ts';
import { audioBoundSeconds } from '../audio-bound.ts';
import type { SpeechDocument, SpeechSegment } from '../input/document.ts';
import type { TextType } from '../input/input-text.ts';
import type { LanguageCode } from './verbalizer.ts';
import { clientText, MARK_CHARACTERS, markWords, withoutMarks } from './word-language/marks.ts';

/** How an account wants a word or phrase said: a respelling read as text, or IPA. */
export interface Pronunciation {
  readonly phrase: string;
  readonly kind: 'respelling' | 'ipa';
  readonly says: string;
  /** The language a respelling's words are said as; absent or null: the text's own rules. */
  readonly wordLanguage?: LanguageCode | null;
}

/** A phrase as it is matched: NFC, lower case, single spaces. */
export function phraseKey(phrase: string): string {
  return phrase.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A word of a phrase may carry the mark of SSML `<lang>` (`text/word-language/marks.ts`).
const MARK = `[${MARK_CHARACTERS}]?`;
/** Where a phrase may begin: not inside a word, a mark allowed; then its first word or sign. */
const PHRASE_START = new RegExp(
  `(?<![\\p{L}\\p{N}])${MARK}([\\p{L}\\p{N}]+|[^\\s\\p{L}\\p{N}${MARK_CHARACTERS}])`,
  'gu',
);
const IS_MARK = new RegExp(`[${MARK_CHARACTERS}]`, 'u');
/** A phrase's units: a word, white space, or one sign. */
const UNIT = new RegExp(`[\\p{L}\\p{N}]+|\\s+|[^\\s\\p{L}\\p{N}${MARK_CHARACTERS}]`, 'uy');

/**
 * The unit of `text` at `at` as phrases are keyed (a word in lower case, any white space as one
 * space, a sign) and where the next begins (past a mark after white space, where a phrase's next
 * word may carry one); undefined where none begins.
 */
function unitAt(text: string, at: number): { unit: string; next: number } | undefined {
  UNIT.lastIndex = at;
  const found = UNIT.exec(text)?.[0];
  if (found === undefined) return undefined;
  let next = at + found.length;
  if (/^\s/u.test(found)) {
    if (IS_MARK.test(text[next] ?? '')) next++;
    return { unit: ' ', next };
  }
  return { unit: found.toLowerCase(), next };
}

/** One phrase's matcher at a given place: whole words, any case, any spacing, marks allowed. */
class PhraseAt {
  readonly #phrase: string;
  #pattern: RegExp | undefined;

  constructor(phrase: string) {
    this.#phrase = phrase;
  }

  /** The phrase as written in `text` from `at`, or undefined when it is not there. */
  at(text: string, at: number): string | undefined {
    // Made on first use: an account's phrases cost nothing until a text holds their words.
    this.#pattern ??= new RegExp(
      `${MARK}${escapeRegExp(this.#phrase).replace(/ /g, `\\s+${MARK}`)}(?![\\p{L}\\p{N}])`,
      'iuy',
    );
    this.#pattern.lastIndex = at;
    return this.#pattern.exec(text)?.[0];
  }
}

/** A node of the phrases' trie: the units after it, and the phrase that ends here. */
interface PhraseNode {
  readonly next: Map<string, PhraseNode>;
  phrase?: PhraseAt;
}

/**
 * A pronunciation lexicon compiled for one language: it rewrites the plain text of a speech
 * document before normalisation and grapheme-to-phoneme, so it applies on every path that speaks
 * a document. A phrase matches whole words, whatever their case, longest phrase first. A
 * respelling replaces the phrase inside its sentence (read by the language's rules like any text,
 * so it is data, never markup); IPA becomes a phonemes segment, as SSML's `<phoneme>` does, and so
 * is spoken as a clause of its own. Text a client spelled out (`say-as`, `sub`) and IPA it gave
 * are left as they are. Billing is unchanged: it counts the text as written.
 *
 * A respelling with a word language is marked as that language's words, and so said with its
 * sounds by the request's voice; one without is said by the text's own rules. A phrase matches
 * inside SSML `<lang>` too, and then the entry decides: its marks replace `<lang>`'s, as the
 * respelling is written for the entry's word language (or its own language when it names none).
 *
 * Phrases are kept in a trie of their units (words, white space, signs): where a phrase may
 * begin, the text's units are walked down it as far as they go, and only the phrases ending on
 * that path are tried, longest first. A text costs its length times the longest phrase's units,
 * however many phrases share a first word (3,000 phrases after one word, and a text repeating it
 * 500 times, took 280 ms when each of that word's phrases was tried in turn). No pattern of every
 * phrase is compiled either: on first use that took 108 ms for 900 phrases on the request thread.
 */
export class Lexicon {
  readonly #byKey: ReadonlyMap<string, Pronunciation>;
  readonly #trie: PhraseNode = { next: new Map() };

  constructor(entries: readonly Pronunciation[]) {
    // What an entry says is an account's text like any request's: it decides no word's language.
    this.#byKey = new Map(
      entries.map((e) => {
        const says = clientText(e.says);
        const marked = e.kind === 'respelling' && e.wordLanguage ? markWords(says, e.wordLanguage) : says;
        return [phraseKey(e.phrase), { ...e, says: marked }];
      }),
    );
    for (const phrase of this.#byKey.keys()) {
      let node = this.#trie;
      let at = 0;
      for (let unit = unitAt(phrase, 0); unit !== undefined; unit = unitAt(phrase, at)) {
        let child = node.next.get(unit.unit);
        if (child === undefined) {
          child = { next: new Map() };
          node.next.set(unit.unit, child);
        }
        node = child;
        at = unit.next;
      }
      // A phrase with a character no text's unit can hold (a mark of the service's own) is never met.
      if (at === phrase.length && node !== this.#trie) node.phrase = new PhraseAt(phrase);
    }
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** The document with this lexicon's phrases said its way. */
  apply(document: SpeechDocument): SpeechDocument {
    if (this.#byKey.size === 0) return document;
    return {
      ...document,
      segments: document.segments.flatMap((s) => (s.kind === 'text' ? this.#rewrite(s) : [s])),
    };
  }

  #rewrite(segment: Extract<SpeechSegment, { kind: 'text' }>): SpeechSegment[] {
    const out: SpeechSegment[] = [];
    let text = '';
    let from = 0;
    for (const [at, written] of this.#phrasesIn(segment.text)) {
      const entry = this.#byKey.get(phraseKey(withoutMarks(written)));
      text += segment.text.slice(from, at);
      from = at + written.length;
      if (entry === undefined) text += written;
      else if (entry.kind === 'respelling') text += entry.says;
      else {
        if (text.trim() !== '') out.push({ kind: 'text', text, rate: segment.rate });
        text = '';
        out.push({ kind: 'phonemes', ipa: entry.says, rate: segment.rate });
      }
    }
    text += segment.text.slice(from);
    if (text.trim() !== '' || out.length === 0) out.push({ kind: 'text', text, rate: segment.rate });
    return out;
  }

  /** Where this lexicon's phrases are in `text`, left to right, each as written there. */
  *#phrasesIn(text: string): Generator<readonly [number, string]> {
    const starts = new RegExp(PHRASE_START);
    for (let start = starts.exec(text); start !== null; start = starts.exec(text)) {
      // The phrases whose units the text's follow from here, shortest first.
      let node = this.#trie.next.get((start[1] as string).toLowerCase());
      if (node === undefined) continue;
      const ending: PhraseAt[] = node.phrase ? [node.phrase] : [];
      for (let unit = unitAt(text, starts.lastIndex); unit !== undefined; unit = unitAt(text, unit.next)) {
        node = node.next.get(unit.unit);
        if (node === undefined) break;
        if (node.phrase) ending.push(node.phrase);
      }
      for (let i = ending.length - 1; i >= 0; i--) {
        const written = ending[i]?.at(text, start.index);
        if (written === undefined) continue;
        yield [start.index, written];
        starts.lastIndex = start.index + written.length;
        break;
      }
    }
  }
}

/**
 * A request's document with `lexicon` applied, under the audio bound of what is now said when
 * that is larger: a respelling may be longer than its phrase, so the account's own entries (each
 * at most 200 characters) may lengthen its audio; nothing else can.
 */
export function withPronunciations(
  speech: { readonly document: SpeechDocument; readonly maxSeconds: number },
  lexicon: Lexicon,
  language: LanguageCode,
  textType: TextType,
): { document: SpeechDocument; maxSeconds: number } {
  if (lexicon.size === 0) return { document: speech.document, maxSeconds: speech.maxSeconds };
  const document = lexicon.apply(speech.document);
  const said = document.segments.reduce(
    (n, s) => n + (s.kind === 'break' ? 0 : codePointCount(s.kind === 'phonemes' ? s.ipa : s.text)),
    0,
  );
  return { document, maxSeconds: Math.max(speech.maxSeconds, audioBoundSeconds(language, said, textType)) };
}
