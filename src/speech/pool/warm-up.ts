import { streamFormats } from '../audio/formats.ts';
import { frontEndOf } from '../engines/registry.ts';
import { splitClauses } from '../text/clauses.ts';
import type { LanguageCode } from '../text/verbalizer.ts';
import type { Voice } from '../voices/voices.ts';
import type { OutputSpec, WarmUpPlan } from './protocol.ts';

// Each sample runs through the same front-end as a request, numbers and all.
const sampleText: Readonly<Record<LanguageCode, string>> = {
  rw: 'Muraho neza, murakaza neza kuri Ijwi. Amafaranga ni 1.500 Frw.',
  en: 'Good morning, thank you for calling. The fee is 1,500 RWF.',
  fr: 'Bonjour, merci de votre appel. Cela coûte 1 500 francs.',
};

/**
 * What pool workers speak at start: one sample per voice, in every stream format and each voice's
 * own rate. (The word lists the language of a word is decided by are the main thread's, read by
 * whoever starts the service: `loadWordListsInThread`.)
 */
export function warmUpPlan(voices: readonly Voice[]): WarmUpPlan {
  const outputs: OutputSpec[] = Object.values(streamFormats).map((f) => ({
    sampleRate: f.sampleRate,
    encoding: f.encoding,
  }));
  for (const rate of new Set(voices.map((v) => v.sampleRate)))
    outputs.push({ sampleRate: rate, encoding: 'pcm_s16le' });
  const samples = voices.flatMap((voice) => {
    const frontEnd = frontEndOf(voice);
    return splitClauses(frontEnd.normalize(sampleText[voice.language])).flatMap((clause) => {
      const input = frontEnd.engineInput(clause);
      return input ? [{ input, voice: voice.engineVoice, gainDb: voice.gainDb ?? 0 }] : [];
    });
  });
  return { samples, outputs };
}
