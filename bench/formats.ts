import { setMaxListeners } from 'node:events';
import { type OpenAiFormat, openAiAudio, openAiFormats } from '../src/http/openai-speech.ts';
import { loadFormatEncoders } from '../src/speech/audio/compressed-encoders.ts';
import { COMPRESSED_SAMPLE_RATE, compressedFormatNames } from '../src/speech/audio/compressed-formats.ts';
import { streamFormats } from '../src/speech/audio/formats.ts';
import { littleEndianBytesToInt16 } from '../src/speech/audio/pcm.ts';
import type { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import { findVoice, type Voice } from '../src/speech/voices/voices.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';
import type { Turn } from './turns.ts';

// The output formats' cost (`npm run bench -- --only formats`, and at the end of the full run): each
// encoder alone on real speech, each format through the whole pipeline (first byte and real-time
// factor, beside WAV in the same run), and a WAV call's first byte while MP3 streams are encoded,
// beside the same while PCM streams run. Ratios, not absolute times, are what carry over.

export interface EncoderCost {
  readonly format: string;
  /** CPU of one thread per second of audio encoded. */
  readonly msPerAudioSecond: number;
  readonly kbitPerSecond: number;
  /** Memory one more open stream holds (LAME: its own WebAssembly instance). */
  readonly kbPerStream: number;
}

export interface PipelineCost {
  readonly format: OpenAiFormat;
  readonly firstByteMs: Percentiles;
  /** Wall time of whole requests over the audio they made. */
  readonly realTimeFactor: number;
}

export interface FormatResults {
  readonly turns: number;
  readonly audioSeconds: number;
  readonly encoders: readonly EncoderCost[];
  readonly pipeline: readonly PipelineCost[];
  /** A WAV call's first byte while `streams` long streams of each format run. */
  readonly underLoad: { readonly streams: number; readonly background: Record<string, Percentiles> };
}

const ROUNDS = 3;
const LOAD_STREAMS = 8;
const LOAD_CALLS = 24;

function voiceOf(turn: Turn): Voice {
  const voice = findVoice(turn.language, turn.speakerId);
  if (!voice) throw new Error(`no voice ${turn.language}/${turn.speakerId}`);
  return voice;
}

/** One request through the pipeline: when its first audio came and how long it took, in ms. */
async function request(pool: EnginePool, turn: Turn, format: OpenAiFormat, signal?: AbortSignal) {
  const voice = voiceOf(turn);
  const started = performance.now();
  let first = Number.NaN;
  let seconds = 0;
  for await (const event of synthesize(pool, {
    ...plainSpeech(turn.text, turn.language),
    voice,
    target: openAiAudio(format, voice).target,
    ...(signal ? { signal } : {}),
  })) {
    if (event.type === 'audio' && Number.isNaN(first)) first = performance.now() - started;
    if (event.type === 'end') seconds = event.seconds;
  }
  return { first, total: performance.now() - started, seconds };
}

/** The turns' speech as 24 kHz PCM, in the pipeline's parts, for the encoders alone. */
async function speechOf(pool: EnginePool, turns: readonly Turn[]): Promise<Int16Array[]> {
  const parts: Int16Array[] = [];
  for (const turn of turns) {
    for await (const event of synthesize(pool, {
      ...plainSpeech(turn.text, turn.language),
      voice: voiceOf(turn),
      target: { kind: 'stream', format: streamFormats.pcm16_24k },
    })) {
      if (event.type === 'audio') parts.push(littleEndianBytesToInt16(event.bytes.slice()));
    }
  }
  return parts;
}

async function encoderCosts(parts: readonly Int16Array[], seconds: number): Promise<EncoderCost[]> {
  const make = await loadFormatEncoders();
  const costs: EncoderCost[] = [];
  for (const format of compressedFormatNames) {
    let best = Number.POSITIVE_INFINITY;
    let bytes = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const encoder = await make(format, COMPRESSED_SAMPLE_RATE);
      bytes = 0;
      for (const part of parts) bytes += encoder.encode(part).byteLength;
      bytes += encoder.end().byteLength;
      best = Math.min(best, performance.now() - started);
    }
    // Memory: streams held open at once, each having encoded a part.
    const open = 32;
    globalThis.gc?.();
    const before = process.memoryUsage();
    const held = [];
    for (let i = 0; i < open; i++) {
      const encoder = await make(format, COMPRESSED_SAMPLE_RATE);
      encoder.encode(parts[i % parts.length] ?? new Int16Array(0));
      held.push(encoder);
    }
    const after = process.memoryUsage();
    for (const encoder of held) encoder.drop();
    const grown = after.rss - before.rss + (after.arrayBuffers - before.arrayBuffers);
    costs.push({
      format,
      msPerAudioSecond: best / seconds,
      kbitPerSecond: (bytes * 8) / seconds / 1000,
      kbPerStream: Math.max(0, grown) / open / 1024,
    });
  }
  return costs;
}

async function pipelineCosts(pool: EnginePool, turns: readonly Turn[]): Promise<PipelineCost[]> {
  const first = new Map<OpenAiFormat, number[]>(openAiFormats.map((f) => [f, []]));
  const time = new Map<OpenAiFormat, { ms: number; seconds: number }>(
    openAiFormats.map((f) => [f, { ms: 0, seconds: 0 }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, turn] of turns.entries()) {
      // Each turn in every format, the order rotated, so drift spreads over all of them.
      for (let k = 0; k < openAiFormats.length; k++) {
        const format = openAiFormats[(i + k + round) % openAiFormats.length] as OpenAiFormat;
        const result = await request(pool, turn, format);
        first.get(format)?.push(result.first);
        const sum = time.get(format);
        if (sum) {
          sum.ms += result.total;
          sum.seconds += result.seconds;
        }
      }
    }
  }
  return openAiFormats.map((format) => {
    const sum = time.get(format) ?? { ms: 0, seconds: 1 };
    return {
      format,
      firstByteMs: percentiles(first.get(format) ?? []),
      realTimeFactor: sum.ms / 1000 / sum.seconds,
    };
  });
}

/** WAV calls one after another while `LOAD_STREAMS` long requests of `format` keep the pool busy. */
async function firstBytesUnder(
  pool: EnginePool,
  turns: readonly Turn[],
  format: OpenAiFormat,
): Promise<Percentiles> {
  const long: Turn = { ...(turns[1] ?? (turns[0] as Turn)), text: turns.map((t) => t.text).join(' ') };
  const stop = new AbortController();
  // Every job of every background stream listens to it.
  setMaxListeners(4 * LOAD_STREAMS, stop.signal);
  const background = Array.from({ length: LOAD_STREAMS }, async () => {
    while (!stop.signal.aborted) await request(pool, long, format, stop.signal).catch(() => {});
  });
  const firsts: number[] = [];
  for (let i = 0; i < LOAD_CALLS; i++) {
    firsts.push((await request(pool, turns[i % turns.length] as Turn, 'wav')).first);
  }
  stop.abort();
  await Promise.all(background);
  return percentiles(firsts);
}

/** Measures the formats on `pool` with `turns` (a dozen is plenty). */
export async function benchFormats(
  pool: EnginePool,
  turns: readonly Turn[],
  progress: (line: string) => void,
): Promise<FormatResults> {
  progress('formats: the encoders alone');
  const parts = await speechOf(pool, turns);
  const samples = parts.reduce((n, part) => n + part.length, 0);
  const audioSeconds = samples / COMPRESSED_SAMPLE_RATE;
  const encoders = await encoderCosts(parts, audioSeconds);
  progress('formats: each through the pipeline');
  const pipeline = await pipelineCosts(pool, turns);
  progress(`formats: WAV first bytes beside ${LOAD_STREAMS} streams of PCM, then of MP3`);
  const background: Record<string, Percentiles> = {};
  for (const format of ['pcm', 'mp3'] as const)
    background[format] = await firstBytesUnder(pool, turns, format);
  return {
    turns: turns.length,
    audioSeconds,
    encoders,
    pipeline,
    underLoad: { streams: LOAD_STREAMS, background },
  };
}

export function printFormats(results: FormatResults): void {
  console.log(
    `\nEncoders alone, one thread, on ${fixed(results.audioSeconds)} s of speech (best of ${ROUNDS})`,
  );
  printTable(
    ['format', 'ms per audio s', 'real-time factor', 'kbit/s', 'KB per open stream'],
    results.encoders.map((e) => [
      e.format,
      fixed(e.msPerAudioSecond, 2),
      fixed(e.msPerAudioSecond / 1000, 4),
      fixed(e.kbitPerSecond),
      fixed(e.kbPerStream, 0),
    ]),
  );
  const wav = results.pipeline.find((p) => p.format === 'wav');
  console.log(
    `\nEach format through the pipeline: ${results.turns} turns x ${ROUNDS}, one request at a time`,
  );
  printTable(
    ['format', 'first byte p50 ms', 'p95 ms', 'vs WAV p50', 'real-time factor', 'vs WAV'],
    results.pipeline.map((p) => [
      p.format,
      fixed(p.firstByteMs.p50),
      fixed(p.firstByteMs.p95),
      ratio(p.firstByteMs.p50, wav?.firstByteMs.p50),
      fixed(p.realTimeFactor, 4),
      ratio(p.realTimeFactor, wav?.realTimeFactor),
    ]),
  );
  const { streams, background } = results.underLoad;
  console.log(`\nA WAV call's first byte while ${streams} long streams run (${LOAD_CALLS} calls)`);
  printTable(
    ['streams of', 'p50 ms', 'p95 ms', 'max ms'],
    Object.entries(background).map(([format, p]) => [format, fixed(p.p50), fixed(p.p95), fixed(p.max)]),
  );
}
