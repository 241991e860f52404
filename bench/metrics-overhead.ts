import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { benchAgent, type CallTarget, type StreamCall, streamCall } from './http-client.ts';
import { prepareData, type RunningServer, startServer } from './server.ts';
import { fixed, type Percentiles, percentiles, printTable, ratio } from './stats.ts';
import type { Turn } from './turns.ts';

// What recording and serving metrics cost a call's first audio: two instances of the service
// started alike, one with metrics off and one with them on (METRICS_TOKEN) and scraped every
// second, fifteen times as often as Prometheus's default. Both get the same calls in rounds
// that alternate which goes first (off/on, then on/off), so the machine's drift falls on both.
// Off against off (its even rounds against its odd ones) shows what the noise alone moves.

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
}

function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Runs the scenario; `turns` are spoken in order, the same ones on both instances. */
export async function benchMetricsOverhead(
  turns: readonly Turn[],
  settings: MetricsOverheadSettings,
  progress: (line: string) => void,
): Promise<MetricsOverheadResults> {
  const dataOff = await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT);
  const dataOn = await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT);
  const servers: RunningServer[] = [];
  let scraper: NodeJS.Timeout | undefined;
  try {
    servers.push(await startServer(dataOff.dataDir));
    servers.push(await startServer(dataOn.dataDir, { METRICS_TOKEN: TOKEN }));
    const [off, on] = servers as [RunningServer, RunningServer];
    let scrapes = 0;
    scraper = setInterval(() => {
      fetch(`${on.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then(
        async (response) => {
          await response.text();
          if (response.status === 200) scrapes++;
        },
        () => {},
      );
    }, SCRAPE_INTERVAL_MS);

    const agent = benchAgent();
    const sides = new Map<RunningServer, Side>([
      [off, { sequential: [], burst: [], byRound: [] }],
      [on, { sequential: [], burst: [], byRound: [] }],
    ]);
    const keysOf = new Map([
      [off, dataOff.keys],
      [on, dataOn.keys],
    ]);
    let failedCalls = 0;
    let nextTurn = 0;
    const record = (calls: readonly StreamCall[], into: number[], round: number[]) => {
      for (const call of calls) {
        if (call.error !== undefined) failedCalls++;
        else {
          into.push(call.ttfbMs);
          round.push(call.ttfbMs);
        }
      }
    };
    for (let round = 0; round < settings.rounds; round++) {
      progress(`  metrics overhead: round ${round + 1} of ${settings.rounds}`);
      const start = nextTurn;
      const order = round % 2 === 0 ? [off, on] : [on, off];
      for (const server of order) {
        const side = sides.get(server) as Side;
        const keys = keysOf.get(server) ?? [];
        const target = (i: number): CallTarget => ({
          agent,
          base: server.base,
          key: keys[(round * 97 + i) % keys.length] ?? '',
        });
        const turnAt = (i: number) => turns[(start + i) % turns.length] as Turn;
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
      }
      nextTurn = start + settings.sequentialCalls + settings.burst;
    }
    agent.destroy();
    const offSide = sides.get(off) as Side;
    const onSide = sides.get(on) as Side;
    const half = (parity: number, phase: 'sequential' | 'burst') =>
      offSide.byRound.filter((_, i) => i % 2 === parity).flatMap((r) => r[phase]);
    const p50 = (values: readonly number[]) => percentiles(values).p50;
    return {
      settings,
      scrapes,
      failedCalls,
      off: {
        sequential: percentiles(offSide.sequential),
        burst: percentiles(offSide.burst),
        rssMb: rssMb(off.pid),
      },
      on: {
        sequential: percentiles(onSide.sequential),
        burst: percentiles(onSide.burst),
        rssMb: rssMb(on.pid),
      },
      noise: {
        sequentialP50: p50(half(1, 'sequential')) / p50(half(0, 'sequential')),
        burstP50: p50(half(1, 'burst')) / p50(half(0, 'burst')),
      },
    };
  } finally {
    clearInterval(scraper);
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dataOff.dataDir, { recursive: true, force: true });
    await rm(dataOn.dataDir, { recursive: true, force: true });
  }
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
    `${settings.rounds} rounds; ${results.scrapes} scrapes; ${results.failedCalls} failed calls; resident memory at the end: off ${fixed(off.rssMb)} MB, on ${fixed(on.rssMb)} MB`,
  );
}
