import { existsSync } from 'node:fs';
import type { EngineId, EngineInput, SpeechEngine } from '../src/speech/engines/engine.ts';
import type * as Registry from '../src/speech/engines/registry.ts';
import type * as Clauses from '../src/speech/text/clauses.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import type * as Voices from '../src/speech/voices/voices.ts';
import type { Voice } from '../src/speech/voices/voices.ts';
import { median } from './results.ts';
import type { Turn } from './turns.ts';

// Engine CPU per second of audio, in this process with no pool and no HTTP: a checkout's own
// engine registry, voices and front-end loaded from its folder (so two builds can be measured
// side by side in one process), its clauses prepared first and only the engines' `synthesize`
// calls inside `process.cpuUsage()`.

/** One checkout's engines ready to speak: each turn's clauses as its engine reads them. */
export interface CheckoutSpeech {
  readonly lines: readonly {
    readonly language: LanguageCode;
    readonly engine: SpeechEngine;
    readonly voice: Voice;
    readonly inputs: readonly EngineInput[];
  }[];
}

/** What one pass over a checkout's lines cost: CPU ms and audio seconds, per language. */
export type CpuPass = Readonly<
  Partial<Record<LanguageCode, { readonly cpuMs: number; readonly seconds: number }>>
>;

/**
 * Loads the checkout at `dir` (its registry, voices and clause splitter, by dynamic import under
 * tsx) and prepares `turns` in its voices: each engine loaded once, each clause made engine input.
 */
export async function loadCheckoutSpeech(dir: URL, turns: readonly Turn[]): Promise<CheckoutSpeech> {
  const registry = (await import(new URL('src/speech/engines/registry.ts', dir).href)) as typeof Registry;
  // The voices' module moved into speech/voices/; a checkout from before has it in speech/.
  const voicesModule = ['src/speech/voices/voices.ts', 'src/speech/voices.ts']
    .map((path) => new URL(path, dir))
    .find((url) => existsSync(url));
  if (!voicesModule) throw new Error(`${dir.pathname}: no voices module`);
  const voices = (await import(voicesModule.href)) as typeof Voices;
  const clauses = (await import(new URL('src/speech/text/clauses.ts', dir).href)) as typeof Clauses;
  const loaded = new Map<EngineId, SpeechEngine>();
  const lines = [];
  for (const turn of turns) {
    const voice = voices.findVoice(turn.language, turn.speakerId);
    if (!voice) throw new Error(`${dir.pathname}: no voice ${turn.language}/${turn.speakerId}`);
    const descriptor = registry.engines[voice.engineVoice.engine];
    let engine = loaded.get(descriptor.id);
    if (!engine) {
      engine = await descriptor.load(await descriptor.prepare?.());
      loaded.set(descriptor.id, engine);
    }
    const frontEnd = registry.frontEndOf(voice);
    const inputs = clauses
      .splitClauses(frontEnd.normalize(turn.text))
      .flatMap((clause) => frontEnd.engineInput(clause) ?? []);
    lines.push({ language: turn.language, engine, voice, inputs });
  }
  return { lines };
}

/** Speaks every line once; CPU time of this process and seconds of audio, per language. */
export async function cpuPass(speech: CheckoutSpeech): Promise<CpuPass> {
  const pass: Partial<Record<LanguageCode, { cpuMs: number; seconds: number }>> = {};
  for (const { language, engine, voice, inputs } of speech.lines) {
    let samples = 0;
    const sink = {
      push: (chunk: Int16Array) => {
        samples += chunk.length;
      },
      cancelled: () => false,
    };
    const started = process.cpuUsage();
    for (const input of inputs) await engine.synthesize(input, voice.engineVoice, 1, sink);
    const used = process.cpuUsage(started);
    const own = pass[language] ?? { cpuMs: 0, seconds: 0 };
    own.cpuMs += (used.user + used.system) / 1000;
    own.seconds += samples / engine.sampleRate(voice.engineVoice);
    pass[language] = own;
  }
  return pass;
}

/** CPU ms per second of audio over `languages`, the median of the passes. */
export function cpuPerAudioSecond(passes: readonly CpuPass[], languages: readonly LanguageCode[]): number {
  return median(
    passes.map((pass) => {
      const own = languages.flatMap((language) => pass[language] ?? []);
      const seconds = own.reduce((sum, p) => sum + p.seconds, 0);
      return seconds > 0 ? own.reduce((sum, p) => sum + p.cpuMs, 0) / seconds : Number.NaN;
    }),
  );
}
