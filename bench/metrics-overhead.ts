import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PrometheusMetrics } from '../src/metrics/prometheus.ts';
import { benchAgent, type CallTarget, type StreamCall, streamCall } from './http-client.ts';
import { type BenchData, NO_CLAUSE_CACHE, prepareData, type RunningServer, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';
import type { Turn } from './turns.ts';

// What recording and serving metrics cost a call's first audio: two instances of the service
// started alike, one with metrics off and one with them on (METRICS_TOKEN) and scraped every
// second, fifteen times as often as Prometheus's default. Both get the same calls in rounds
// that alternate which goes first (off/on, then on/off), so the machine's drift falls on both,
// and each is started first for half the rounds. Off against off (its even rounds against its
// odd ones) shows what the noise alone moves.

const TOKEN = 'bench-metrics-token-0123456789abcdef0123';
const SCRAPE_INTERVAL_MS = 1_000;
const ACCOUNTS = 4;
const KEYS_PER_ACCOUNT = 25;

export interface MetricsOverheadSettings {
  readonly rounds: number;
  /** Calls made one after another in each round, on each instance. */
  readonly sequentialCalls: number;
  /** Calls sent at once in each round, on each instance. */
  readonly burst: number;
}

export function metricsOverheadSettings(quick: boolean): MetricsOverheadSettings {
  return quick
    ? { rounds: 4, sequentialCalls: 6, burst: 16 }
    : { rounds: 10, sequentialCalls: 12, burst: 32 };
}

/** First-byte times of one instance, one call at a time and in bursts. */
interface Side {
  readonly sequential: number[];
  readonly burst: number[];
  /** The same, by round, for the noise estimate. */
  readonly byRound: { sequential: number[]; burst: number[] }[];
}

export interface MetricsOverheadResults {
  readonly settings: MetricsOverheadSettings;
  readonly scrapes: number;
  readonly failedCalls: number;
  readonly off: {
    readonly sequential: Percentiles;
    readonly burst: Percentiles;
    readonly rssMb: number | null;
  };
  readonly on: {
    readonly sequential: Percentiles;
    readonly burst: Percentiles;
    readonly rssMb: number | null;
  };
  /** The metrics-off instance's even rounds against its odd ones: the ratio noise alone gives. */
  readonly noise: { readonly sequentialP50: number; readonly burstP50: number };
  /** Measured in the bench's process, below what the calls can show. */
  readonly inProcess: {
    /** Recording what one stream call of three clauses records, in microseconds. */
    readonly recordingPerCallUs: number;
    /** Rendering a scrape with a busy instance's series, in ms (the main thread is held meanwhile). */
    readonly renderMs: number;
  };
}

/**
 * The recorder's own costs, timed in this process: what one stream call records (its request, its
 * place in flight, first audio, audio, and three clauses' lateness and engine time), and a scrape
 * of series for every route, status and language a busy instance might have.
 */
async function measureInProcess(): Promise<MetricsOverheadResults['inProcess']> {
  const metrics = new PrometheusMetrics();
  const recordCall = (i: number) => {
    const end = metrics.callStarted('stream');
    for (let clause = 0; clause < 3; clause++) {
      metrics.clauseStarted('espeak-ng', (i % 7) * 10 - 20);
      metrics.engineTime('espeak-ng', 4 + (i % 5));
    }
    metrics.firstAudio('stream', 'espeak-ng', 40 + (i % 50));
    metrics.audioDelivered('stream', 'espeak-ng', 3.2);
    end();
    metrics.httpRequest('/api/v1/tts-stream.php', 200, 'rw');
  };
  const calls = 50_000;
  for (let i = 0; i < 1_000; i++) recordCall(i);
  const started = performance.now();
  for (let i = 0; i < calls; i++) recordCall(i);
  const recordingPerCallUs = ((performance.now() - started) * 1000) / calls;
  const routes = [
    '/api/v1/tts.php',
    '/api/v1/tts-stream.php',
    '/v1/audio/speech',
    '/api/v1/health.php',
    undefined,
  ];
  for (const route of routes)
    for (const status of [200, 400, 401, 402, 429, 503])
      for (const language of ['rw', 'en', 'fr', undefined] as const)
        metrics.httpRequest(route, status, language);
  for (const path of ['stream', 'openai', 'live', 'studio'] as const)
    for (const engine of ['espeak-ng', 'flite', 'neural'] as const) metrics.firstAudio(path, engine, 50);
  await metrics.render();
  const renders = 50;
  const renderStart = performance.now();
  for (let i = 0; i < renders; i++) await metrics.render();
  return { recordingPerCallUs, renderMs: (performance.now() - renderStart) / renders };
}

function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

type Role = 'off' | 'on';

/** Runs the scenario; `turns` are spoken in order, the same ones on both instances. */
export async function benchMetricsOverhead(
  turns: readonly Turn[],
  settings: MetricsOverheadSettings,
  progress: (line: string) => void,
): Promise<MetricsOverheadResults> {
  const data: Record<Role, BenchData> = {
    off: await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT),
    on: await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT),
  };
  const sides: Record<Role, Side> = {
    off: { sequential: [], burst: [], byRound: [] },
    on: { sequential: [], burst: [], byRound: [] },
  };
  const rss: Record<Role, number[]> = { off: [], on: [] };
  let scrapes = 0;
  let failedCalls = 0;
  let nextTurn = 0;
  const agent = benchAgent();
  const record = (calls: readonly StreamCall[], into: number[], round: number[]) => {
    for (const call of calls) {
      if (call.error !== undefined) failedCalls++;
      else {
        into.push(call.ttfbMs);
        round.push(call.ttfbMs);
      }
    }
  };
  /** One round on one instance: calls one at a time, then a burst. */
  const runRound = async (role: Role, server: RunningServer, round: number, start: number) => {
    const keys = data[role].keys;
    const target = (i: number): CallTarget => ({
      agent,
      base: server.base,
      key: keys[(round * 97 + i) % keys.length] ?? '',
    });
    const turnAt = (i: number) => turns[(start + i) % turns.length] as Turn;
    const side = sides[role];
    const thisRound = { sequential: [] as number[], burst: [] as number[] };
    side.byRound.push(thisRound);
    for (let i = 0; i < settings.sequentialCalls; i++) {
      const turn = turnAt(i);
      record(
        [await streamCall(target(i), turn.language, turn.text, turn.speakerId)],
        side.sequential,
        thisRound.sequential,
      );
    }
    const burst = await Promise.all(
      Array.from({ length: settings.burst }, (_, i) => {
        const turn = turnAt(settings.sequentialCalls + i);
        return streamCall(target(settings.sequentialCalls + i), turn.language, turn.text, turn.speakerId);
      }),
    );
    record(burst, side.burst, thisRound.burst);
  };

  try {
    // On a busy machine the instance started second was measured up to 1.4x slower one call at a
    // time, whatever its settings: each instance is started first for half the rounds.
    const halves: Role[][] = [
      ['off', 'on'],
      ['on', 'off'],
    ];
    const roundsPerHalf = Math.ceil(settings.rounds / 2);
    for (const [half, startOrder] of halves.entries()) {
      const running = new Map<Role, RunningServer>();
      let scraper: NodeJS.Timeout | undefined;
      try {
        for (const role of startOrder) {
          const env = role === 'on' ? { METRICS_TOKEN: TOKEN } : {};
          running.set(role, await startServer(data[role].dataDir, { env: { ...NO_CLAUSE_CACHE, ...env } }));
        }
        const on = running.get('on') as RunningServer;
        scraper = setInterval(() => {
          fetch(`${on.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(
            async (response) => {
              await response.text();
              if (response.status === 200) scrapes++;
            },
            () => {},
          );
        }, SCRAPE_INTERVAL_MS);
        for (let r = 0; r < roundsPerHalf; r++) {
          const round = half * roundsPerHalf + r;
          progress(`  metrics overhead: round ${round + 1} of ${roundsPerHalf * 2}`);
          const start = nextTurn;
          // Which instance is called first alternates too.
          const callOrder: Role[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
          for (const role of callOrder)
            await runRound(role, running.get(role) as RunningServer, round, start);
          nextTurn = start + settings.sequentialCalls + settings.burst;
        }
        for (const [role, server] of running) {
          const mb = rssMb(server.pid);
          if (mb !== null) rss[role].push(mb);
        }
      } finally {
        clearInterval(scraper);
        await Promise.all([...running.values()].map((server) => server.stop()));
      }
    }
  } finally {
    agent.destroy();
    await rm(data.off.dataDir, { recursive: true, force: true });
    await rm(data.on.dataDir, { recursive: true, force: true });
  }
  const halfOf = (parity: number, phase: 'sequential' | 'burst') =>
    sides.off.byRound.filter((_, i) => i % 2 === parity).flatMap((r) => r[phase]);
  const p50 = (values: readonly number[]) => percentiles(values).p50;
  const meanRss = (values: readonly number[]) =>
    values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  return {
    settings,
    scrapes,
    failedCalls,
    off: {
      sequential: percentiles(sides.off.sequential),
      burst: percentiles(sides.off.burst),
      rssMb: meanRss(rss.off),
    },
    on: {
      sequential: percentiles(sides.on.sequential),
      burst: percentiles(sides.on.burst),
      rssMb: meanRss(rss.on),
    },
    noise: {
      sequentialP50: p50(halfOf(1, 'sequential')) / p50(halfOf(0, 'sequential')),
      burstP50: p50(halfOf(1, 'burst')) / p50(halfOf(0, 'burst')),
    },
    inProcess: await measureInProcess(),
  };
}

/** The scenario's table: first byte with metrics off and on, and their ratio beside the noise's. */
export function printMetricsOverhead(results: MetricsOverheadResults): void {
  const { off, on, settings } = results;
  console.log(
    `\nMetrics overhead: first audio byte (ms, client side) of stream calls, metrics off vs on (scraped every ${SCRAPE_INTERVAL_MS / 1000} s)`,
  );
  const row = (phase: string, a: Percentiles, b: Percentiles, noise: number) => [
    phase,
    String(a.n),
    fixed(a.p50),
    fixed(a.p95),
    String(b.n),
    fixed(b.p50),
    fixed(b.p95),
    ratio(b.p50, a.p50),
    ratio(b.p95, a.p95),
    `${fixed(noise, 2)}x`,
  ];
  printTable(
    [
      'calls',
      'n off',
      'p50 off',
      'p95 off',
      'n on',
      'p50 on',
      'p95 on',
      'on/off p50',
      'on/off p95',
      'off/off p50',
    ],
    [
      row('one at a time', off.sequential, on.sequential, results.noise.sequentialP50),
      row(`bursts of ${settings.burst}`, off.burst, on.burst, results.noise.burstP50),
    ],
  );
  console.log(
    `${settings.rounds} rounds; ${results.scrapes} scrapes; ${results.failedCalls} failed calls; resident memory at the end of each half (mean): off ${fixed(off.rssMb)} MB, on ${fixed(on.rssMb)} MB`,
  );
  const { recordingPerCallUs, renderMs } = results.inProcess;
  const firstAudioUs = off.sequential.p50 * 1000;
  console.log(
    `In process: recording one stream call's metrics ${fixed(recordingPerCallUs, 2)} us (${fixed((recordingPerCallUs / firstAudioUs) * 100, 3)}% of the p50 first audio off); rendering a scrape ${fixed(renderMs, 2)} ms`,
  );
}
