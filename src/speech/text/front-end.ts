import type { EngineInput } from '../engines/engine.ts';
import { englishVerbalizer } from './en/verbalizer.ts';
import { frenchVerbalizer } from './fr/verbalizer.ts';
import { createNormalizer } from './normalize.ts';
import { readableText } from './readable.ts';
import { kinyarwandaToEspeak, kinyarwandaToIpa } from './rw/g2p.ts';
import { kinyarwandaVerbalizer } from './rw/verbalizer.ts';
import type { LanguageCode, Verbalizer } from './verbalizer.ts';

/** What the pipeline needs from a language: text as spoken, and each clause as engine input. */
export interface FrontEnd {
  /** Numbers, money, dates... spelled out in words; other text unchanged. */
  normalize(text: string): string;
  /** Only the characters the language's voices read (`readable.ts`): for words already spelled out. */
  readable(text: string): string;
  /** One normalised clause as the engine reads it; undefined when it holds nothing to say. */
  engineInput(clause: string): EngineInput | undefined;
  /** IPA of a clause when the front-end itself knows it; otherwise the engine is asked. */
  readonly ipa?: (clause: string) => string;
}

// The engine reads text as text only (see engines/engine.ts): nothing in it needs escaping.
const plainText = (text: string): EngineInput => ({ kind: 'text', text });
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
    engineInput: kinyarwandaInput,

    ipa: kinyarwandaToIpa,
  },
  en: { ...readingsOf(englishVerbalizer), engineInput: plainText },
  fr: { ...readingsOf(frenchVerbalizer), engineInput: plainText },
};

/**
 * The front-end of a language; for an engine that reads text only, one that gives it each clause
 * as text and knows no IPA of its own.
 */
export function frontEndFor(language: LanguageCode, readsTextOnly = false): FrontEnd {
  const frontEnd = frontEnds[language];
  return readsTextOnly
    ? { normalize: frontEnd.normalize, readable: frontEnd.readable, engineInput: plainText }
    : frontEnd;
}
