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
 */
export class Lexicon {
  readonly #byKey: ReadonlyMap<string, Pronunciation>;
  readonly #pattern: RegExp | undefined;

  constructor(entries: readonly Pronunciation[]) {
    // What an entry says is an account's text like any request's: it decides no word's language.
    this.#byKey = new Map(
      entries.map((e) => {
        const says = clientText(e.says);
        const marked = e.kind === 'respelling' && e.wordLanguage ? markWords(says, e.wordLanguage) : says;
        return [phraseKey(e.phrase), { ...e, says: marked }];
      }),
    );
    const phrases = [...this.#byKey.keys()].sort((a, b) => b.length - a.length);
    this.#pattern =
      phrases.length === 0
        ? undefined
        : new RegExp(
            `(?<![\\p{L}\\p{N}])${MARK}(?:${phrases.map((p) => escapeRegExp(p).replace(/ /g, `\\s+${MARK}`)).join('|')})(?![\\p{L}\\p{N}])`,
            'giu',
          );
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** The document with this lexicon's phrases said its way. */
  apply(document: SpeechDocument): SpeechDocument {
    if (this.#pattern === undefined) return document;
    return {
      ...document,
      segments: document.segments.flatMap((s) => (s.kind === 'text' ? this.#rewrite(s) : [s])),
    };
  }

  #rewrite(segment: Extract<SpeechSegment, { kind: 'text' }>): SpeechSegment[] {
    const out: SpeechSegment[] = [];
    let text = '';
    let from = 0;
    for (const match of segment.text.matchAll(this.#pattern as RegExp)) {
      const entry = this.#byKey.get(phraseKey(withoutMarks(match[0])));
      const at = match.index ?? 0;
      text += segment.text.slice(from, at);
      from = at + match[0].length;
      if (entry === undefined) text += match[0];
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
