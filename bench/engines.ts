import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../src/config.ts';
import type { EngineId } from '../src/speech/engines/engine.ts';
import { checkVoicePack } from '../src/speech/engines/neural/voice-pack.ts';
import { engines as registeredEngines } from '../src/speech/engines/registry.ts';
import { callLimitOf } from '../src/speech/pool/admission.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { warmUpPlan } from '../src/speech/pool/warm-up.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { assignedVoice, loadAssignedVoices } from '../src/speech/voices/assigned-voices.ts';
import { builtInVoices, type Voice } from '../src/speech/voices/voices.ts';
import { writeVoicePack } from '../test/helpers/voice-packs.ts';
import { type Spoken, speak } from './engine.ts';
import type { EngineCapacity, EngineLadderStep } from './results.ts';
import { type BenchSettings, LATE_TOLERANCE_MS } from './settings.ts';
import { percentiles } from './stats.ts';
import { benchEngines, benchLanguages, interleave, type Turn, type Turns } from './turns.ts';

// Each engine on its own, in this process with no HTTP: its real-time factor and first clause one
// call at a time, then how many streams at once it keeps in real time. The built-in engines speak
// their own voices; the neural engine speaks the packs an operator assigned, the pack that
// `--voice-pack DIR` names, or else the tests' tiny model, which measures the runtime's overhead
// (process, messages, resampling) and nothing of a real voice's cost.

/** What the report says of the tiny model, so that nobody takes its figures for a voice's. */
const TINY_MODEL = 'tiny test model (runtime overhead only, not a real voice)';

interface EngineVoices {
  readonly engine: EngineId;
  readonly voices: readonly Voice[];
  /** The voices as the report names them. */
  readonly label: string;
}

/** A turn, and the voice that speaks it. */
interface Line {
  readonly turn: Turn;
  readonly voice: Voice;
}

export type EngineOptions = Pick<Config, 'poolSize' | 'voicesDir' | 'neuralMaxCalls'> & {
  /** A voice pack folder to bench as the neural engine (`--voice-pack DIR`). */
  readonly voicePack?: string | undefined;
};

/** Measures every engine present, one after another, in one pool of the service's size. */
export async function benchEngineCapacities(
  turns: Turns,
  settings: BenchSettings,
  options: EngineOptions,
  progress: (line: string) => void,
): Promise<EngineCapacity[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'ijwi-bench-engines-'));
  try {
    const neural = await neuralVoices(options, scratch, progress);
    const engines: EngineVoices[] = [...benchEngines.map(builtIn), neural];
    const pool = await EnginePool.start({
      size: options.poolSize,
      warmUp: warmUpPlan(engines.flatMap((e) => e.voices)),
      // Every neural call admitted, so that the ladder finds what the workers sustain rather than
      // where the service would start refusing calls; that limit is reported beside it.
      heavyCalls: { neural: 10_000 },
    });
    try {
      // The limit the service starts its pool with (main.ts): NEURAL_MAX_CALLS, else the pool's
      // default for its size (from the engine's descriptor).
      const neuralLimit = options.neuralMaxCalls ?? callLimitOf(registeredEngines.neural, pool.size);
      const results: EngineCapacity[] = [];
      for (const engine of engines) {
        progress(`  ${engine.engine}: ${engine.label}`);
        const limit =
          engine.engine === 'neural' && neuralLimit !== undefined ? { serviceCallLimit: neuralLimit } : {};
        results.push({ ...(await benchOne(pool, engine, turns, settings)), ...limit });
      }
      return results;
    } finally {
      await pool.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function builtIn(engine: EngineId): EngineVoices {
  const voices = builtInVoices.filter((voice) => voice.engineVoice.engine === engine);
  return { engine, voices, label: `${voices.length} built-in (${languagesOf(voices).join(' ')})` };
}

/**
 * The neural voices to bench: the pack `--voice-pack` names (asked for by name, so it goes before
 * the assigned ones), the voices assigned in the service's voices directory, or the tiny model.
 */
async function neuralVoices(
  options: EngineOptions,
  scratch: string,
  progress: (line: string) => void,
): Promise<EngineVoices> {
  const named = (voices: readonly Voice[]): EngineVoices => ({
    engine: 'neural',
    voices,
    label: voices
      .map((v) => `${v.pack?.name} / ${v.pack?.speaker} as ${v.language}/${v.speakerId}`)
      .join(', '),
  });
  if (options.voicePack !== undefined) return named([await packVoice(resolve(options.voicePack))]);
  const assigned = await loadAssignedVoices(options.voicesDir);
  for (const problem of assigned.problems) progress(`  assigned voice left out: ${problem}`);
  if (assigned.voices.length > 0) return named(assigned.voices);
  const tiny = await packVoice(writeVoicePack(join(scratch, 'tiny-mms'), { kind: 'mms' }));
  return { engine: 'neural', voices: [tiny], label: TINY_MODEL };
}

/**
 * A pack folder's first speaker as the voice of its language with speaker_id 0, built as the
 * service builds an assigned voice, so that the bench speaks exactly what the service would.
 */
async function packVoice(folder: string): Promise<Voice> {
  const check = await checkVoicePack(folder);
  if (!check.ok) throw new Error(`voice pack ${folder}: ${check.problems.join('; ')}`);
  const { manifest } = check.pack;
  const voice = await assignedVoice(dirname(folder), {
    language: manifest.language,
    speakerId: 0,
    voice: basename(folder),
    speaker: manifest.speakers[0]?.id ?? 0,
  });
  if (Array.isArray(voice)) throw new Error(`voice pack ${folder}: ${voice.join('; ')}`);
  return voice;
}

function languagesOf(voices: readonly Voice[]): LanguageCode[] {
  return benchLanguages.filter((language) => voices.some((voice) => voice.language === language));
}

/**
 * The texts of the voices' languages, `select`ed from each language's turns and interleaved as
 * every scenario takes them, each spoken by the voices of its language in turn.
 */
function linesOf(
  turns: Turns,
  voices: readonly Voice[],
  select: (texts: readonly string[]) => readonly string[],
): Line[] {
  const languages = languagesOf(voices);
  const selected = Object.fromEntries(
    benchLanguages.map((language) => [language, languages.includes(language) ? select(turns[language]) : []]),
  ) as Turns;
  return interleave(selected).flatMap((turn) => {
    const own = voices.filter((voice) => voice.language === turn.language);
    const voice = own[turn.speakerId % own.length];
    return voice ? [{ turn: { ...turn, speakerId: voice.speakerId }, voice }] : [];
  });
}

/** Sentence ends: a full stop, question or exclamation mark before a space or the end. */
const sentencesIn = (text: string): number => text.match(/[.!?](\s|$)/g)?.length ?? 0;

/**
 * Replies of two sentences, as a receptionist's answer on a call: the turns of two sentences, then
 * the turns of one, two by two. Every stream so has a clause queued behind its first, due only
 * once the first has played: the pool's deadlines, not just its first audio, are put to the test.
 */
function twoSentences(texts: readonly string[]): string[] {
  const ones = texts.filter((text) => sentencesIn(text) === 1);
  const pairs = ones.flatMap((text, i) => (i % 2 === 0 && ones[i + 1] ? [`${text} ${ones[i + 1]}`] : []));
  return [...texts.filter((text) => sentencesIn(text) === 2), ...pairs];
}

async function benchOne(
  pool: EnginePool,
  engine: EngineVoices,
  turns: Turns,
  settings: BenchSettings,
): Promise<EngineCapacity> {
  const say = (line: Line): Promise<Spoken> => speak(pool, line.turn, undefined, line.voice);
  const sequential = linesOf(turns, engine.voices, (texts) => texts.slice(0, settings.engineTurns));
  // The pool has warmed every voice in every worker; one call per voice warms this side's code.
  for (const voice of engine.voices) {
    const line = sequential.find((l) => l.voice === voice);
    if (line) await say(line);
  }
  const one: Spoken[] = [];
  for (const line of sequential) one.push(await say(line));
  const busySeconds = one.reduce((sum, s) => sum + s.lastMs, 0) / 1000;
  const audioSeconds = one.reduce((sum, s) => sum + s.audioSeconds, 0);

  const replies = linesOf(turns, engine.voices, twoSentences);
  const ladder: EngineLadderStep[] = [];
  const ladderStart = performance.now();
  let next = 0;
  for (const calls of settings.engineCalls) {
    if (performance.now() - ladderStart > settings.engineLadderSeconds * 1000) break;
    const lines = Array.from({ length: calls }, () => replies[next++ % replies.length] as Line);
    const step = await atOnce(lines, say);
    ladder.push(step);
    if (!step.passed) break;
  }
  const passed = ladder.filter((step) => step.passed);
  return {
    engine: engine.engine,
    voices: engine.label,
    languages: languagesOf(engine.voices),
    calls: one.length,
    rtf: busySeconds / audioSeconds,
    firstClause: percentiles(one.map((s) => s.firstMs)),
    ladder,
    callsInFlight: passed.at(-1)?.calls ?? 0,
    atLeast: passed.length === ladder.length,
  };
}

/** Starts every line at once and reads each stream as fast as it comes. */
async function atOnce(
  lines: readonly Line[],
  say: (line: Line) => Promise<Spoken>,
): Promise<EngineLadderStep> {
  const start = performance.now();
  const settled = await Promise.allSettled(lines.map(say));
  const ms = performance.now() - start;
  const spoken = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
  // A stream without audio (NaN) is as bad as a late one.
  const late = spoken.filter((s) => !(s.lateMs <= LATE_TOLERANCE_MS)).length;
  return {
    calls: lines.length,
    late,
    worstLateMs: Math.max(0, ...spoken.map((s) => s.lateMs)),
    errors: errors.length,
    ...(errors[0] === undefined ? {} : { firstError: errors[0] }),
    firstAudio: percentiles(spoken.map((s) => s.firstMs)),
    ms,
    passed: late === 0 && errors.length === 0,
  };
}
