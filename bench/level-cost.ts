import { createLevelStage, type LevelStage } from '../src/speech/audio/level.ts';
import { ResamplerBackend } from '../src/speech/audio/resampler.ts';
import type { Voice } from '../src/speech/voices/voices.ts';
import { engineClauses } from '../test/helpers/engine-audio.ts';
import { fixed, printTable } from './stats.ts';

// What the level stage costs beside the engine that feeds it, per voice, in this process on one
// core: the engine's own time for a few receptionist turns, then the level stage alone (and the
// 8 kHz resampler, for scale) over the engine's very chunks, clause by clause as the worker runs
// it, many rounds. All in ms of CPU per second of audio.

/** The engine's chunks of each clause of some turns, the seconds of audio they make and what they took. */
export interface EngineAudio {
  readonly voice: Voice;
  readonly clauses: readonly (readonly Int16Array[])[];
  readonly seconds: number;
  /** The engine's time per second of audio, best of a few rounds after a warm-up. */
  readonly engineMs: number;
}

const ENGINE_ROUNDS = 3;
const STAGE_ROUNDS = 60;

/** The best of `rounds` runs of `run`, in ms per second of `seconds` of audio. */
function bestMsPerSecond(rounds: number, seconds: number, run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best / seconds;
}

/** `texts` spoken by `voice`'s engine in this thread, timed. */
export async function engineAudio(voice: Voice, texts: readonly string[]): Promise<EngineAudio> {
  await engineClauses(voice, texts.slice(0, 1)); // the engine's first synthesis compiles its code
  let clauses: Int16Array[][] = [];
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ENGINE_ROUNDS; round++) {
    const started = performance.now();
    clauses = await engineClauses(voice, texts);
    best = Math.min(best, performance.now() - started);
  }
  const samples = clauses.reduce((n, clause) => n + clause.reduce((m, chunk) => m + chunk.length, 0), 0);
  const seconds = samples / voice.sampleRate;
  return { voice, clauses, seconds, engineMs: best / seconds };
}

/** A level stage as `createLevelStage` makes one. */
export type LevelStageFactory = (gainDb: number, sampleRate: number) => LevelStage;

/** The level stage's time per second of audio over `audio`, a new stage per clause as in the worker. */
export function levelStageMs(audio: EngineAudio, create: LevelStageFactory = createLevelStage): number {
  const { voice, clauses } = audio;
  return bestMsPerSecond(STAGE_ROUNDS, audio.seconds, () => {
    for (const clause of clauses) {
      const stage = create(voice.gainDb ?? 0, voice.sampleRate);
      for (const chunk of clause) stage.process(chunk);
      stage.flush();
    }
  });
}

/** The 8 kHz resampler's time per second of audio over `audio`, for scale. */
export async function resamplerMs(audio: EngineAudio): Promise<number> {
  const backend = await ResamplerBackend.load();
  return bestMsPerSecond(STAGE_ROUNDS, audio.seconds, () => {
    for (const clause of audio.clauses) {
      const resampler = backend.resampler(audio.voice.sampleRate, 8000);
      for (const chunk of clause) resampler.process(chunk);
      resampler.flush();
    }
  });
}

export interface LevelCost {
  readonly voice: string;
  readonly audioSeconds: number;
  readonly engineMs: number;
  readonly levelMs: number;
  readonly resamplerMs: number;
}

/** Each voice's engine, level stage and resampler on the first `turns` of its language. */
export async function levelCosts(
  voices: readonly Voice[],
  textsOf: (voice: Voice) => readonly string[],
): Promise<LevelCost[]> {
  const costs: LevelCost[] = [];
  for (const voice of voices) {
    const audio = await engineAudio(voice, textsOf(voice));
    costs.push({
      voice: `${voice.language} ${voice.speakerId} ${voice.name}`,
      audioSeconds: Math.round(audio.seconds * 10) / 10,
      engineMs: audio.engineMs,
      levelMs: levelStageMs(audio),
      resamplerMs: await resamplerMs(audio),
    });
  }
  return costs;
}

export function printLevelCosts(costs: readonly LevelCost[]): void {
  console.log(
    `\nlevel stage: ms of CPU per second of audio, one core, on each voice's own engine chunks (engine best of ${ENGINE_ROUNDS}, stages best of ${STAGE_ROUNDS})`,
  );
  printTable(
    ['voice', 'audio s', 'engine', 'level stage', 'level / engine', 'resampler to 8 kHz'],
    costs.map((c) => [
      c.voice,
      fixed(c.audioSeconds, 1),
      fixed(c.engineMs, 2),
      fixed(c.levelMs, 3),
      `${fixed((100 * c.levelMs) / c.engineMs, 1)} %`,
      fixed(c.resamplerMs, 2),
    ]),
  );
}
