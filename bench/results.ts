import type { EngineId } from '../src/speech/engines/engine.ts';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import type { StreamCall } from './http-client.ts';
import type { LiveHttp } from './live.ts';
import type { BenchSettings } from './settings.ts';
import { type Percentiles, percentile, percentiles } from './stats.ts';
import { benchEngines, engineOf } from './turns.ts';

// What the scenarios measure, shared by the engine baseline, the load generator and the report.

/** Latencies of a set of stream calls, in ms. */
export interface StreamLatencies {
  readonly calls: number;
  readonly errors: number;
  /** The first error seen, to tell what went wrong. */
  readonly firstError?: string;
  /** Time to first audio byte at the client (request sent -> first byte). */
  readonly ttfb: Percentiles;
  /** `X-Voice-Ttfa-Ms`: request arrival -> first audio ready, by the server's clock. */
  readonly serverTtfa: Percentiles;
  /** Time to last byte. */
  readonly ttlb: Percentiles;
  readonly audioSeconds: number;
}

export function latenciesOf(calls: readonly StreamCall[]): StreamLatencies {
  const good = calls.filter((c) => c.error === undefined);
  const firstError = calls.find((c) => c.error !== undefined)?.error;
  return {
    calls: calls.length,
    errors: calls.length - good.length,
    ...(firstError === undefined ? {} : { firstError }),
    ttfb: percentiles(good.map((c) => c.ttfbMs)),
    serverTtfa: percentiles(good.map((c) => c.serverTtfaMs)),
    ttlb: percentiles(good.map((c) => c.ttlbMs)),
    audioSeconds: good.reduce((sum, c) => sum + c.audioSeconds, 0),
  };
}

/** First byte of the calls one engine spoke, out of a mixed set (a burst). */
export interface EngineFirstByte {
  readonly engine: EngineId;
  readonly calls: number;
  readonly firstByte: Percentiles;
}

/** The first bytes of `calls` (errors left out), per engine of the bench. */
export function firstByteByEngine(
  calls: readonly { readonly language: LanguageCode; readonly firstMs: number; readonly error?: string }[],
): EngineFirstByte[] {
  return benchEngines.map((engine) => {
    const own = calls.filter((c) => c.error === undefined && engineOf(c.language) === engine);
    return { engine, calls: own.length, firstByte: percentiles(own.map((c) => c.firstMs)) };
  });
}

export interface SequentialHttp extends StreamLatencies {
  readonly language: LanguageCode;
}

export interface BurstHttp extends StreamLatencies {
  readonly size: number;
  readonly repeats: number;
  /** First request sent -> last byte of the burst's last stream; median over the repeats. */
  readonly makespanMs: number;
  /** Audio seconds delivered per second of wall time over the burst (x real time); median. */
  readonly throughput: number;
  /** Streams that made their listener wait after the first byte (see `StreamCall.lateMs`). */
  readonly lateStreams: number;
  readonly worstLateMs: number;
  readonly byEngine: readonly EngineFirstByte[];
}

export interface FileHttp {
  readonly language: LanguageCode;
  readonly characters: number;
  readonly audioSeconds: number;
  readonly errors: number;
  /** Request sent -> JSON answer with the file's URL (the file is written). */
  readonly responseMs: Percentiles;
  /** The same, plus downloading the WAV file. */
  readonly downloadMs: Percentiles;
}

export interface SustainedStep {
  /** New calls started per second. */
  readonly rate: number;
  readonly seconds: number;
  readonly latencies: StreamLatencies;
  /**
   * Calls in flight, averaged over the step: a call is in flight from its request until its
   * listener has heard all of it (first byte + audio duration, or the last byte if later).
   */
  readonly inFlightMean: number;
  readonly inFlightPeak: number;
  /** Streams with a chunk that arrived after the listener needed it. */
  readonly lateStreams: number;
  readonly worstLateMs: number;
  /** The load generator's worst delay in starting a call on schedule (its own saturation). */
  readonly scheduleLagMs: number;
  /** First byte p95 under the target, no late stream, no error. */
  readonly passed: boolean;
}

export interface HangUpHttp {
  /** A short call on an idle server. */
  readonly idleTtfb: Percentiles;
  /** The same call made the moment every worker's long stream was hung up. */
  readonly afterHangUpTtfb: Percentiles;
  readonly longStreams: number;
}

export interface HttpResults {
  readonly sequential: readonly SequentialHttp[];
  readonly bursts: readonly BurstHttp[];
  readonly files: readonly FileHttp[];
  readonly sustained: readonly SustainedStep[];
  /** The same ladder with English turns only: what the Flite voices sustain. */
  readonly sustainedEnglish: readonly SustainedStep[];
  readonly hangUp: HangUpHttp;
  /** Live WebSocket replies fed word by word, per number of sockets at once. */
  readonly live: readonly LiveHttp[];
  /** Bursts of fresh connections, Ijwi beside the naive peer (one espeak-ng process per request). */
  readonly freshBursts: readonly FreshBurstHttp[];
}

/** Ijwi's calls of fresh bursts, pooled: request sent -> first and last body byte, and its own time to first audio. */
export interface FreshCalls {
  readonly calls: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly firstByte: Percentiles;
  /** The service's X-Voice-Ttfa-Ms: request arrived -> first audio ready. */
  readonly serverTtfa: Percentiles;
  readonly lastByte: Percentiles;
}

/** A burst of fresh calls: Ijwi's first byte, and the naive peer's whole file for the same texts. */
export interface FreshBurstHttp extends FreshCalls {
  readonly size: number;
  readonly repeats: number;
  /** The peer's whole file; undefined when no peer ran (espeak-ng not installed). */
  readonly peer?: { readonly calls: number; readonly errors: number; readonly wholeFile: Percentiles };
}

/** One step of the engines scenario's ladder: `calls` two-sentence streams started at once. */
export interface EngineLadderStep {
  readonly calls: number;
  /** Calls whose listener waited longer than the scenario's tolerance after the first audio. */
  readonly late: number;
  readonly worstLateMs: number;
  readonly errors: number;
  /** The first error seen, to tell what went wrong. */
  readonly firstError?: string;
  /** Call -> first audio, over the step's calls. */
  readonly firstAudio: Percentiles;
  /** The step's start -> its last call's end. */
  readonly ms: number;
  /** No call late, none failed. */
  readonly passed: boolean;
}

/** One engine on its own in an in-process pool, no HTTP (`engines.ts`). */
export interface EngineCapacity {
  readonly engine: EngineId;
  /** The voices it spoke, as the report names them. */
  readonly voices: string;
  readonly languages: readonly LanguageCode[];
  /** Turns spoken one at a time. */
  readonly calls: number;
  /** Real-time factor: seconds of synthesis per second of audio, one call at a time, whole calls. */
  readonly rtf: number;
  /** Call -> first audio (the first clause), one call at a time. */
  readonly firstClause: Percentiles;
  readonly ladder: readonly EngineLadderStep[];
  /** The most calls at once of the ladder that kept every listener in real time; 0 when none did. */
  readonly callsInFlight: number;
  /** The ladder ran out of steps or of time before a step failed: `callsInFlight` is a floor. */
  readonly atLeast: boolean;
  /** The calls the service admits at once on this engine (`EnginePool.callLimit`); absent: every call. */
  readonly serviceCallLimit?: number;
}

/** The plan the bench hands its load generator. */
export interface LoadPlan {
  readonly type: 'plan';
  readonly base: string;
  readonly keys: readonly string[];
  readonly settings: BenchSettings;
  /** Worker threads in the server: how many long streams it takes to occupy them all. */
  readonly poolSize: number;
  /** The naive peer's address, when it runs. */
  readonly peerBase?: string;
  /** Run this scenario only (after the warm-up), and answer with a `live` message. */
  readonly only?: 'live';
}

/** What the load generator tells the bench: the phase it starts (for memory peaks), then results. */
export type LoadMessage =
  | { readonly type: 'phase'; readonly name: string }
  | { readonly type: 'done'; readonly results: HttpResults }
  | { readonly type: 'live'; readonly results: readonly LiveHttp[] }
  | { readonly type: 'failed'; readonly message: string };

/** The median of a few values (repeats of one scenario). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
