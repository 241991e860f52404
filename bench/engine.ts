import { readFile } from 'node:fs/promises';
import type { EnginePool } from '../src/speech/pool.ts';
import type { OutputSpec } from '../src/speech/pool-protocol.ts';
import { splitClauses } from '../src/speech/text/clauses.ts';
import { frontEndFor } from '../src/speech/text/front-end.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { findVoice } from '../src/speech/voices.ts';
import { percentile } from './stats.ts';

export type Turns = Readonly<Record<LanguageCode, readonly string[]>>;

export async function loadTurns(): Promise<Turns> {
  return JSON.parse(await readFile(new URL('./turns.json', import.meta.url), 'utf8')) as Turns;
}

export interface EngineResult {
  readonly language: LanguageCode;
  readonly turns: number;
  readonly audioSeconds: number;
  /** Compute time over audio time, one turn at a time (lower is faster). */
  readonly realTimeFactor: number;
  /** The same, all turns of the language submitted at once to the whole pool. */
  readonly poolRealTimeFactor: number;
  readonly firstChunkMs: { readonly p50: number; readonly p95: number; readonly p99: number };
}

const output: OutputSpec = { sampleRate: 8000, encoding: 'pcm_s16le' };

/** Time to first chunk and total time of one turn, clause by clause, as the pipeline runs it. */
async function speakTurn(pool: EnginePool, language: LanguageCode, text: string) {
  const frontEnd = frontEndFor(language);
  const voice = findVoice(language, 0);
  if (!voice) throw new Error(`no voice for ${language}`);
  const start = performance.now();
  let firstChunkMs = Number.NaN;
  let bytes = 0;
  for (const clause of splitClauses(frontEnd.normalize(text))) {
    for await (const chunk of pool.synthesize({
      input: frontEnd.engineInput(clause),
      voice: voice.engineVoice,
      output,
    })) {
      if (Number.isNaN(firstChunkMs)) firstChunkMs = performance.now() - start;
      bytes += chunk.byteLength;
    }
  }
  return { firstChunkMs, totalMs: performance.now() - start, audioSeconds: bytes / 2 / output.sampleRate };
}

/** The raw engine baseline: turns through the worker pool with no HTTP, per language. */
export async function benchEngine(pool: EnginePool, turns: Turns): Promise<EngineResult[]> {
  const results: EngineResult[] = [];
  for (const language of ['rw', 'en', 'fr'] as const) {
    const texts = turns[language];
    const sequential = [];
    for (const text of texts) sequential.push(await speakTurn(pool, language, text));
    const audioSeconds = sequential.reduce((sum, r) => sum + r.audioSeconds, 0);
    const computeSeconds = sequential.reduce((sum, r) => sum + r.totalMs, 0) / 1000;
    const start = performance.now();
    await Promise.all(texts.map((text) => speakTurn(pool, language, text)));
    const poolSeconds = (performance.now() - start) / 1000;
    const first = sequential.map((r) => r.firstChunkMs);
    results.push({
      language,
      turns: texts.length,
      audioSeconds,
      realTimeFactor: computeSeconds / audioSeconds,
      poolRealTimeFactor: poolSeconds / audioSeconds,
      firstChunkMs: { p50: percentile(first, 50), p95: percentile(first, 95), p99: percentile(first, 99) },
    });
  }
  return results;
}
