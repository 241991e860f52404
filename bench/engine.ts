import { streamFormats } from '../src/speech/audio/formats.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { warmUpPlan } from '../src/speech/pool/warm-up.ts';
import { type AudioTarget, plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { builtInVoices, findVoice, type Voice } from '../src/speech/voices/voices.ts';
import { type EngineFirstByte, firstByteByEngine, median } from './results.ts';
import { type BenchSettings, WARM_UP_BURST } from './settings.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { benchLanguages, engineOf, longText, type Turn, type Turns } from './turns.ts';

// The raw engine baseline: the same texts through the same pipeline (front-end, clauses, worker
// pool, resampling, framing) in this process, with no HTTP, accounts or sockets. Each HTTP
// figure of the report is given as a ratio to its counterpart here.

/** What every bench call asks for: the telephony default, as the HTTP scenarios do. */
const stream: AudioTarget = { kind: 'stream', format: streamFormats.pcm16_8k };

export interface Spoken {
  readonly language: LanguageCode;
  /** Call -> first audio frames ready. */
  readonly firstMs: number;
  /** Call -> last frames ready. */
  readonly lastMs: number;
  readonly audioSeconds: number;
  /**
   * The worst lateness of any audio after the first against playback that starts with the first:
   * max over audio events of (arrival - (first audio + duration of the audio before it)), as
   * `StreamCall.lateMs` has it for HTTP. Zero: the listener never waited; NaN: no audio.
   */
  readonly lateMs: number;
}

/** The catalogue's voice for a turn. */
function voiceOf(turn: Turn): Voice {
  const voice = findVoice(turn.language, turn.speakerId);
  if (!voice) throw new Error(`no voice ${turn.language}/${turn.speakerId}`);
  return voice;
}

/** Speaks one turn through the whole pipeline, reading its audio as fast as it comes. */
export async function speak(
  pool: EnginePool,
  turn: Turn,
  target: AudioTarget = stream,
  voice: Voice = voiceOf(turn),
): Promise<Spoken> {
  const start = performance.now();
  let firstMs = Number.NaN;
  let audioSeconds = 0;
  // Each later audio event's arrival and the bytes before it; they are set against the audio's
  // duration once `end` gives its bytes per second.
  const later: { readonly atMs: number; readonly bytesBefore: number }[] = [];
  let bytes = 0;
  let bytesPerSecond = Number.NaN;
  for await (const event of synthesize(pool, { ...plainSpeech(turn.text, voice.language), voice, target })) {
    if (event.type === 'audio') {
      const atMs = performance.now() - start;
      if (Number.isNaN(firstMs)) firstMs = atMs;
      else later.push({ atMs, bytesBefore: bytes });
      bytes += event.bytes.byteLength;
    }
    if (event.type === 'end') {
      audioSeconds = event.seconds;
      bytesPerSecond = event.bytes / event.seconds;
    }
  }
  const lateMs = later.reduce(
    (worst, e) => Math.max(worst, e.atMs - (firstMs + (e.bytesBefore / bytesPerSecond) * 1000)),
    Number.isNaN(firstMs) ? Number.NaN : 0,
  );
  return { language: turn.language, firstMs, lastMs: performance.now() - start, audioSeconds, lateMs };
}

export interface SequentialEngine {
  readonly language: LanguageCode;
  readonly calls: number;
  readonly firstAudio: Percentiles;
  readonly lastAudio: Percentiles;
  readonly audioSeconds: number;
  /** Audio seconds per second of synthesis, one turn at a time (x real time). */
  readonly speed: number;
}

export interface BurstEngine {
  readonly size: number;
  readonly byEngine: readonly EngineFirstByte[];
  readonly firstAudio: Percentiles;
  readonly lastAudio: Percentiles;
  readonly makespanMs: number;
  /** Audio seconds per wall second with the whole burst in the pool (x real time); median. */
  readonly throughput: number;
}

export interface FileEngine {
  readonly language: LanguageCode;
  readonly characters: number;
  readonly audioSeconds: number;
  /** The whole text at the voice's own rate, as the file endpoint makes it. */
  readonly ms: Percentiles;
}

export interface EngineResults {
  readonly sequential: readonly SequentialEngine[];
  /**
   * The espeak-ng languages one call at a time again, in a pool of their own where Flite is
   * never loaded: what the espeak-ng voices cost before English moved to Flite, side by side.
   */
  readonly espeakAlone: readonly SequentialEngine[];
  readonly bursts: readonly BurstEngine[];
  readonly files: readonly FileEngine[];
}

/** Runs the baseline: a warm-up pass, one at a time, bursts, then the long file texts. */
export async function benchEngine(
  pool: EnginePool,
  turns: Turns,
  all: readonly Turn[],
  settings: BenchSettings,
): Promise<EngineResults> {
  const at = (i: number): Turn => {
    const turn = all[i % all.length];
    if (!turn) throw new Error('no turns');
    return turn;
  };
  // Warmed as the service is before its figures are taken: every turn, then a burst.
  for (const turn of all) await speak(pool, turn);
  await Promise.all(Array.from({ length: WARM_UP_BURST }, (_, i) => speak(pool, at(i))));

  const sequential = await oneAtATime(pool, all, settings.sequentialPasses);

  const bursts: BurstEngine[] = [];
  for (const size of settings.burstSizes) {
    const rounds = [];
    for (let r = 0; r < settings.burstRepeats; r++) {
      const start = performance.now();
      const spoken = await Promise.all(Array.from({ length: size }, (_, i) => speak(pool, at(r * size + i))));
      rounds.push({ spoken, makespanMs: performance.now() - start });
    }
    const spoken = rounds.flatMap((r) => r.spoken);
    bursts.push({
      size,
      byEngine: firstByteByEngine(spoken),
      firstAudio: percentiles(spoken.map((s) => s.firstMs)),
      lastAudio: percentiles(spoken.map((s) => s.lastMs)),
      makespanMs: median(rounds.map((r) => r.makespanMs)),
      throughput: median(
        rounds.map((r) => r.spoken.reduce((sum, s) => sum + s.audioSeconds, 0) / (r.makespanMs / 1000)),
      ),
    });
  }

  const files: FileEngine[] = [];
  for (const language of benchLanguages) {
    const text = longText(turns, language, settings.fileCharacters);
    const runs: Spoken[] = [];
    for (let r = 0; r < settings.fileRepeats; r++) {
      runs.push(await speak(pool, { language, text, speakerId: 0 }, { kind: 'native' }));
    }
    files.push({
      language,
      characters: [...text].length,
      audioSeconds: runs[0]?.audioSeconds ?? 0,
      ms: percentiles(runs.map((s) => s.lastMs)),
    });
  }
  return { sequential, bursts, files, espeakAlone: await espeakAlone(pool.size, all, settings) };
}

/** `turns` one call after another, `passes` times over, by language. */
async function oneAtATime(
  pool: EnginePool,
  turns: readonly Turn[],
  passes: number,
): Promise<SequentialEngine[]> {
  const one: Spoken[] = [];
  for (let pass = 0; pass < passes; pass++) {
    for (const turn of turns) one.push(await speak(pool, turn));
  }
  const languages = benchLanguages.filter((language) => turns.some((turn) => turn.language === language));
  return languages.map((language) => {
    const runs = one.filter((s) => s.language === language);
    const audioSeconds = runs.reduce((sum, s) => sum + s.audioSeconds, 0);
    const busySeconds = runs.reduce((sum, s) => sum + s.lastMs, 0) / 1000;
    return {
      language,
      calls: runs.length,
      firstAudio: percentiles(runs.map((s) => s.firstMs)),
      lastAudio: percentiles(runs.map((s) => s.lastMs)),
      audioSeconds,
      speed: audioSeconds / busySeconds,
    };
  });
}

/** The espeak-ng turns in a pool of the same size that only ever loads espeak-ng, warmed alike. */
async function espeakAlone(
  size: number,
  all: readonly Turn[],
  settings: BenchSettings,
): Promise<SequentialEngine[]> {
  const turns = all.filter((turn) => engineOf(turn.language) === 'espeak-ng');
  const espeakVoices = builtInVoices.filter((voice) => voice.engineVoice.engine === 'espeak-ng');
  const pool = await EnginePool.start({ size, warmUp: warmUpPlan(espeakVoices) });
  try {
    for (const turn of turns) await speak(pool, turn);
    return await oneAtATime(pool, turns, settings.sequentialPasses);
  } finally {
    await pool.close();
  }
}
