import type { ClausePart, EngineInput } from '../engines/engine.ts';
import { startsEnglishPhrase } from './en/phrases.ts';
import { englishVerbalizer } from './en/verbalizer.ts';
import { frenchVerbalizer } from './fr/verbalizer.ts';
import { createNormalizer } from './normalize.ts';
import { readableText } from './readable.ts';
import { kinyarwandaToEspeak, kinyarwandaToIpa, kinyarwandaWordIpa } from './rw/g2p.ts';
import { kinyarwandaVerbalizer } from './rw/verbalizer.ts';
import type { LanguageCode, Verbalizer } from './verbalizer.ts';
import { type ForeignWord, foreignWords } from './word-language/clause.ts';
import { withoutMarks } from './word-language/marks.ts';

/** What the pipeline needs from a language: text as spoken, and each clause as engine input. */
export interface FrontEnd {
  /** Numbers, money, dates... spelled out in words; other text unchanged. */
  normalize(text: string): string;
  /** Only the characters the language's voices read (`readable.ts`): for words already spelled out. */
  readable(text: string): string;
  /**
   * One normalised clause as the engine reads it; undefined when it holds nothing to say. A clause
   * with words of another language (`word-language/`) is `mixed` input: those words apart, each
   * with its language, for the engine to say with the voice's own sounds.
   */
  engineInput(clause: string): EngineInput | undefined;
  /** IPA of a clause when the front-end itself knows it; otherwise the engine is asked. */
  readonly ipa?: (clause: string) => string;
  /** Whether a phrase may start with a word after another (`FirstPhrase` in `clauses.ts`); absent: not known. */
  readonly startsPhrase?: (word: string, before: string) => boolean;
}

/** How a language reads the text between a clause's foreign words (`afterWord`: one comes before it). */
type NativePart = (text: string, afterWord: boolean) => ClausePart | undefined;

// The engine reads text as text only (see engines/engine.ts): nothing in it needs escaping.
const plainText = (text: string): EngineInput => ({ kind: 'text', text });
// Spaces too: two foreign words side by side stay two words.
const textPart: NativePart = (text) => (text === '' ? undefined : { kind: 'text', text });
const kinyarwandaPart: NativePart = (text, afterWord) => {
  const phonemes = kinyarwandaToEspeak(text, afterWord);
  return phonemes === '' ? undefined : { kind: 'phonemes', phonemes, ipa: kinyarwandaToIpa(text) };
};

/**
 * A foreign word as a part: a Kinyarwanda word with its IPA (and that of what the sentence's
 * language adds to it), which only Ijwi's own rules know; an English or French word as written,
 * for the engine's dictionary of its language.
 */
function wordPart(word: ForeignWord): ClausePart {
  const { text, language } = word;
  return language === 'rw'
    ? { kind: 'word', text, language, ipa: `${word.before}${kinyarwandaWordIpa(word.stem)}${word.after}` }
    : { kind: 'word', text: word.stem, language };
}

/** A clause with foreign words as `mixed` input: the text between them read by `native`. */
function mixedInput(
  clause: string,
  words: readonly ForeignWord[],
  native: NativePart,
): EngineInput | undefined {
  const parts: ClausePart[] = [];
  let at = 0;
  for (const word of words) {
    const before = native(withoutMarks(clause.slice(at, word.start)), parts.length > 0);
    if (before) parts.push(before);
    parts.push(wordPart(word));
    at = word.end;
  }
  const after = native(withoutMarks(clause.slice(at)), true);
  if (after) parts.push(after);
  return parts.length === 0 ? undefined : { kind: 'mixed', parts };
}

/** A language's clause reader: its own input for a clause of its words alone, `mixed` otherwise. */
function clauseInput(
  language: LanguageCode,
  own: (clause: string) => EngineInput | undefined,
  native: NativePart,
): (clause: string) => EngineInput | undefined {
  return (clause) => {
    const words = foreignWords(clause, language);
    return words.length === 0 ? own(withoutMarks(clause)) : mixedInput(clause, words, native);
  };
}

const kinyarwandaInput = (clause: string): EngineInput | undefined => {
  const phonemes = kinyarwandaToEspeak(clause);
  return phonemes === '' ? undefined : { kind: 'phonemes', phonemes };
};

/** A language's normaliser, behind the skip of characters its voices cannot read (readable.ts). */
function readingsOf(verbalizer: Verbalizer): Pick<FrontEnd, 'normalize' | 'readable'> {
  const normalize = createNormalizer(verbalizer);
  const readable = (text: string) => readableText(text, verbalizer.language);
  return { normalize: (text) => normalize(readable(text)), readable };
}

const frontEnds: Readonly<Record<LanguageCode, FrontEnd>> = {
  rw: {
    ...readingsOf(kinyarwandaVerbalizer),
    engineInput: clauseInput('rw', kinyarwandaInput, kinyarwandaPart),
    ipa: (clause) => kinyarwandaToIpa(withoutMarks(clause)),
  },
  en: {
    ...readingsOf(englishVerbalizer),
    engineInput: clauseInput('en', plainText, textPart),
    startsPhrase: startsEnglishPhrase,
  },
  fr: { ...readingsOf(frenchVerbalizer), engineInput: clauseInput('fr', plainText, textPart) },
};

/**
 * The front-end of a language; for an engine that reads text only, one that gives it each clause
 * as text (foreign words and all, which it says as its language's) and knows no IPA of its own.
 */
export function frontEndFor(language: LanguageCode, readsTextOnly = false): FrontEnd {
  const frontEnd = frontEnds[language];
  return readsTextOnly
    ? {
        normalize: frontEnd.normalize,
        readable: frontEnd.readable,
        engineInput: (clause) => plainText(withoutMarks(clause)),
        ...(frontEnd.startsPhrase ? { startsPhrase: frontEnd.startsPhrase } : {}),
      }
    : frontEnd;
}
