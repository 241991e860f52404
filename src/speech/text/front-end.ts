import { englishVerbalizer } from './en/verbalizer.ts';
import { frenchVerbalizer } from './fr/verbalizer.ts';
import { createNormalizer } from './normalize.ts';
import { kinyarwandaToEspeak, kinyarwandaToIpa } from './rw/g2p.ts';
import { kinyarwandaVerbalizer } from './rw/verbalizer.ts';
import type { LanguageCode } from './verbalizer.ts';

/** What the pipeline needs from a language: text as spoken, and each clause as engine input. */
export interface FrontEnd {
  /** Numbers, money, dates... spelled out in words; other text unchanged. */
  normalize(text: string): string;
  /** One normalised clause as the engine reads it. */
  engineInput(clause: string): string;
  /** IPA of a clause when the front-end itself knows it; otherwise the engine is asked. */
  readonly ipa?: (clause: string) => string;
}

// `[[` switches espeak-ng to phoneme input: user text must never carry it there.
const ENGINE_MARKUP = /[[\]]/g;
const plainText = (clause: string) => clause.replace(ENGINE_MARKUP, ' ');

const frontEnds: Readonly<Record<LanguageCode, FrontEnd>> = {
  rw: {
    normalize: createNormalizer(kinyarwandaVerbalizer),
    engineInput: kinyarwandaToEspeak,
    ipa: kinyarwandaToIpa,
  },
  en: { normalize: createNormalizer(englishVerbalizer), engineInput: plainText },
  fr: { normalize: createNormalizer(frenchVerbalizer), engineInput: plainText },
};

/** The front-end of a language. */
export function frontEndFor(language: LanguageCode): FrontEnd {
  return frontEnds[language];
}
