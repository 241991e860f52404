import { rm } from 'node:fs/promises';
import { streamFormats } from '../src/speech/audio/formats.ts';
import { ClauseCache } from '../src/speech/cache/clause-cache.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { warmUpPlan } from '../src/speech/pool/warm-up.ts';
import { plainSpeech, synthesize } from '../src/speech/synthesize.ts';
import { findVoice } from '../src/speech/voices/voices.ts';
import { Scrape } from '../test/helpers/metrics.ts';
import { type FreshCall, freshBurst, freshCalls } from './fresh-burst-run.ts';
import type { FreshCalls } from './results.ts';
import { prepareData, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';
import type { Turn, Turns } from './turns.ts';

// The greeting scenario: a receptionist's calls all open with the same greeting and go on
// differently. A burst of fresh calls (new connections, one key each, all of one account,
// mulaw_8k) to the service with its clause cache and to the same service without it, the bursts
// taking turns, each service having said the greeting once before (as it has on a real line).
// After each cached burst, the same number of fresh GETs of the voices listing to the same service:
// the floor, what any request costs (a new connection, routing, a reply), that the cached greeting
// burst is held to (at most 3x). Then, in this process with no HTTP, the server time of a cached
// first clause: from the call to `synthesize()` to its first audio, against the same clause from
// the engine.

/** What the receptionist says first on every call: one clause, in a Flite voice (English). */
export const GREETING = 'Thank you for calling Kigali Dental.';
const LANGUAGE = 'en' as const;
const SPEAKER_ID = 0;
const SETTLE_MS = 1500;
/** The services' metrics token: the cache's counts are read from /metrics. */
const METRICS_TOKEN = 'bench-greeting-metrics-token-0123456789';
/** Fresh calls before the bursts, with other texts: the service is warm, as the bench's is. */
const WARM_UP_CALLS = 16;
/** Sequential calls of the in-process measurement. */
const IN_PROCESS_CALLS = 200;

export interface GreetingResults {
  readonly size: number;
  readonly rounds: number;
  readonly uncached: FreshCalls;
  readonly cached: FreshCalls;
  /** Fresh GETs of the voices listing to the cached service, a burst after each of its own. */
  readonly floor?: FreshCalls;
  /** The cached service's counts after its bursts (its /metrics). */
  readonly cache: { readonly hits: number; readonly misses: number; readonly bytes: number };
  /** In process: `synthesize()` to the first audio of the greeting, from the cache and from the engine. */
  readonly inProcess: { readonly cached: Percentiles; readonly engine: Percentiles };
}

/**
 * Call `n` of the run: `opening` (the greeting), then two clauses of its own, about as long as a
 * turn. Every clause after the opening holds the call's number, so no other call, in this burst or
 * a later one, has it in its cache: only the opening differs between two bursts of the same `n`s.
 */
export function callOf(n: number, opening = GREETING): Turn {
  const time = `${8 + (n % 9)}:${String((n * 7) % 60).padStart(2, '0')}`;
  const text = `${opening} Your reference is ${1000 + n * 7}. Appointment ${n + 1} is at ${time}, in room ${100 + n}.`;
  return { language: LANGUAGE, speakerId: SPEAKER_ID, text };
}

/**
 * One service for one side: its own data (one account, a key for each of `calls` fresh calls),
 * started from the checkout `dir` (by default this one) and warmed.
 */
export async function startSide(cacheMb: number, calls: number, turns: Turns, dir?: URL) {
  const keys = WARM_UP_CALLS + 1 + calls;
  const data = await prepareData(1, keys, dir);
  const server = await startServer(data.dataDir, {
    env: { CLAUSE_CACHE_MB: String(cacheMb), METRICS_TOKEN },
    ...(dir ? { dir } : {}),
  });
  let nextKey = 0;
  const burst = (list: readonly Turn[]) =>
    freshBurst({
      type: 'fresh-burst',
      base: server.base,
      turns: list,
      target: 'ijwi',
      keys: list.map(() => data.keys[nextKey++] as string),
    });
  await burst(
    turns.en.slice(0, WARM_UP_CALLS).map((text) => ({ language: LANGUAGE, speakerId: SPEAKER_ID, text })),
  );
  // The greeting said once before the bursts, on both sides alike.
  const sayGreeting = () => burst([{ language: LANGUAGE, speakerId: SPEAKER_ID, text: GREETING }]);
  await sayGreeting();
  return {
    burst,
    sayGreeting,
    listingBurst: (size: number) =>
      freshBurst({
        type: 'fresh-burst',
        base: server.base,
        turns: Array.from({ length: size }, (_, n) => callOf(n)),
        target: 'listing',
      }),
    async cacheStats() {
      const response = await fetch(`${server.base}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const scrape = new Scrape(await response.text());
      return {
        hits: scrape.value('ijwi_clause_cache_hits_total'),
        misses: scrape.value('ijwi_clause_cache_misses_total'),
        bytes: scrape.value('ijwi_clause_cache_bytes'),
      };
    },
    async stop() {
      await server.stop();
      await rm(data.dataDir, { recursive: true, force: true });
    },
  };
}

/** The in-process figures: first audio of the greeting from the cache, and from the engine. */
async function inProcess(poolSize: number): Promise<GreetingResults['inProcess']> {
  const voice = findVoice(LANGUAGE, SPEAKER_ID);
  if (!voice) throw new Error('no greeting voice');
  const pool = await EnginePool.start({ size: poolSize, warmUp: warmUpPlan([voice]) });
  const clauses = new ClauseCache(16 * 1024 * 1024).forAccount('acct_bench');
  const firstAudio = async (cached: boolean): Promise<number> => {
    const started = performance.now();
    const events = synthesize(pool, {
      ...plainSpeech(GREETING, LANGUAGE),
      voice,
      target: { kind: 'stream', format: streamFormats.mulaw_8k },
      ...(cached ? { clauses } : {}),
    });
    try {
      for await (const event of events) if (event.type === 'audio') return performance.now() - started;
      throw new Error('no audio');
    } finally {
      await events.return(undefined);
    }
  };
  try {
    // Said once whole: only a clause spoken to its end is kept.
    for await (const _ of synthesize(pool, {
      ...plainSpeech(GREETING, LANGUAGE),
      voice,
      target: { kind: 'stream', format: streamFormats.mulaw_8k },
      clauses,
    })) {
      // the whole greeting, into the cache
    }
    const cached: number[] = [];
    const engine: number[] = [];
    for (let i = 0; i < IN_PROCESS_CALLS; i++) {
      cached.push(await firstAudio(true));
      engine.push(await firstAudio(false));
    }
    return { cached: percentiles(cached), engine: percentiles(engine) };
  } finally {
    await pool.close();
  }
}

/**
 * Runs the scenario: `rounds` bursts of `size` calls on each side, taking turns (uncached first),
 * then the in-process figures. Progress goes to `progress`.
 */
export async function benchGreeting(
  turns: Turns,
  size: number,
  rounds: number,
  poolSize: number,
  progress: (line: string) => void,
): Promise<GreetingResults> {
  progress(`greeting: ${rounds} burst(s) of ${size} fresh calls, with and without the clause cache`);
  const calls = (round: number) => Array.from({ length: size }, (_, i) => callOf(round * size + i));
  const uncachedSide = await startSide(0, size * rounds, turns);
  const cachedSide = await startSide(8, size * rounds, turns);
  const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const uncached: FreshCall[] = [];
  const cached: FreshCall[] = [];
  const floor: FreshCall[] = [];
  let cache: GreetingResults['cache'];
  try {
    for (let round = 0; round < rounds; round++) {
      await settle();
      uncached.push(...(await uncachedSide.burst(calls(round))));
      await settle();
      cached.push(...(await cachedSide.burst(calls(round))));
      await settle();
      floor.push(...(await cachedSide.listingBurst(size)));
    }
    cache = await cachedSide.cacheStats();
  } finally {
    await uncachedSide.stop();
    await cachedSide.stop();
  }
  progress('greeting: a cached first clause in process, no HTTP');
  return {
    size,
    rounds,
    uncached: freshCalls(uncached),
    cached: freshCalls(cached),
    floor: freshCalls(floor),
    cache,
    inProcess: await inProcess(poolSize),
  };
}

/** The scenario's table, and whether it met the targets. */
export function printGreeting(results: GreetingResults): void {
  const { uncached, cached, inProcess: local } = results;
  console.log(
    `\nGreeting burst: ${results.rounds} x ${results.size} fresh calls of one account opening with "${GREETING}" (ms)`,
  );
  const row = (name: string, side: FreshCalls) => [
    name,
    `${side.calls - side.errors}/${side.calls}`,
    fixed(side.firstByte.p50),
    fixed(side.firstByte.p95),
    fixed(side.serverTtfa.p50),
    fixed(side.serverTtfa.p95),
    fixed(side.lastByte.p95),
  ];
  printTable(
    ['service', 'calls ok', 'first byte p50', 'p95', 'server ttfa p50', 'p95', 'last byte p95'],
    [
      row('no clause cache', uncached),
      row('clause cache', cached),
      ...(results.floor ? [row('voices listing (floor)', results.floor)] : []),
    ],
  );
  const firstByteRatio = cached.firstByte.p95 / uncached.firstByte.p95;
  console.log(
    `first byte p95 with the cache: ${ratio(cached.firstByte.p95, uncached.firstByte.p95)} of the uncached burst ` +
      `(target at most 0.20x: ${firstByteRatio <= 0.2 ? 'met' : 'NOT met'}); ` +
      `cache: ${results.cache.hits} hits, ${results.cache.misses} misses, ${results.cache.bytes} bytes held`,
  );
  console.log(
    `in process, synthesize() to first audio of the greeting, ${local.cached.n} calls: from the cache p50 ` +
      `${fixed(local.cached.p50, 3)} p95 ${fixed(local.cached.p95, 3)} ms (target at most 1 ms: ` +
      `${local.cached.p95 <= 1 ? 'met' : 'NOT met'}); from the engine p50 ${fixed(local.engine.p50, 2)} ` +
      `p95 ${fixed(local.engine.p95, 2)} ms`,
  );
  if (results.floor) {
    const overFloor = cached.firstByte.p95 / results.floor.firstByte.p95;
    console.log(
      `first byte p95 with the cache: ${ratio(cached.firstByte.p95, results.floor.firstByte.p95)} of the voices ` +
        `listing's, the floor (target at most 3x: ${overFloor <= 3 ? 'met' : 'NOT met'})`,
    );
  }
  for (const side of [uncached, cached])
    if (side.firstError) console.log(`a call failed: ${side.firstError}`);
}
