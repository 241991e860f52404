import { readFile } from 'node:fs/promises';
import type { EngineId } from '../src/speech/engines/engine.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { voicesOf } from '../src/speech/voices/voices.ts';

/** The bench's language order, in tables and when turns are interleaved. */
export const benchLanguages: readonly LanguageCode[] = ['rw', 'en', 'fr'];

export type Turns = Readonly<Record<LanguageCode, readonly string[]>>;

/** The engine that speaks a language (the catalogue gives all of a language's voices one). */
export function engineOf(language: LanguageCode): EngineId {
  const engines = new Set(voicesOf(language).map((voice) => voice.engineVoice.engine));
  const [engine] = engines;
  if (engine === undefined || engines.size > 1) throw new Error(`${language} is not spoken by one engine`);
  return engine;
}

/** Every engine of the catalogue, in the bench's language order. */
export const benchEngines: readonly EngineId[] = [...new Set(benchLanguages.map(engineOf))];

/** One receptionist turn: what a caller hears in one reply. */
export interface Turn {
  readonly language: LanguageCode;
  readonly text: string;
  /** The voices of the language take turns, as calls of many customers would. */
  readonly speakerId: number;
}

export async function loadTurns(): Promise<Turns> {
  return JSON.parse(await readFile(new URL('./turns.json', import.meta.url), 'utf8')) as Turns;
}

/** Every turn, the languages interleaved (rw, en, fr, rw...), so any run of them mixes languages. */
export function interleave(turns: Turns): Turn[] {
  const out: Turn[] = [];
  const longest = Math.max(...benchLanguages.map((l) => turns[l].length));
  for (let i = 0; i < longest; i++) {
    for (const language of benchLanguages) {
      const text = turns[language][i];
      if (text !== undefined) out.push({ language, text, speakerId: i % voicesOf(language).length });
    }
  }
  return out;
}

/** A document of at most `chars` characters, made of a language's turns one after another. */
export function longText(turns: Turns, language: LanguageCode, chars: number): string {
  const all = turns[language];
  let text = '';
  for (let i = 0; ; i++) {
    const next = all[i % all.length] ?? '';
    const joined = text ? `${text} ${next}` : next;
    if ([...joined].length > chars) return text;
    text = joined;
  }
}
