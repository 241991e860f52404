import { statSync } from 'node:fs';
import { randomSource } from '../test/helpers/signals.ts';
import { commitOf } from './against.ts';
import { Callers, type CallRecord } from './soak/calls.ts';
import { SoakDeployment } from './soak/deployment.ts';
import type { SoakService } from './soak/service.ts';
import { prepareAccounts } from './soak/soak.ts';
import { fixed, percentile, printTable, ratio } from './stats.ts';
import { loadTurns } from './turns.ts';

// `npm run bench -- --restart [--against DIR] [--rounds N]`: the warm-up after a kill -9 of a
// service with data and under load. Each side (this checkout, and the built checkout in DIR) runs
// the soak's embedded deployment (SQLite, the neural pack, six accounts) fed by the soak's callers;
// after a while under load the instance is killed with -9 and started again on the same data, the
// callers going on (a caller refused tries again a second later), while a probe asks for a stream
// every 100 ms. Per restart: when health first answered (listening) and first answered 200
// (ready), and when the first probe's first audio came, from the spawn; then the first audio of the
// next probes against the probes' before the kill. The instances run without the clause cache, so
// that every probe's first audio is an engine's. The sides take turns, round by round, so both
// meet the same machine. Not a test: the figures depend on the machine and on whatever else runs.

/** Callers at once, as the soak's. */
const CONCURRENT = 4;
const RETRY_AFTER_MS = 1_000;
const PROBE_EVERY_MS = 100;
/** Probes after the first success: the first calls a restarted service answers. */
const PROBES_AFTER = 8;
/** Health is asked this often while the service starts. */
const POLL_MS = 25;

export interface RestartRound {
  /** The database's write-ahead log when it was killed, in bytes: what its restart recovers. */
  readonly walBytes: number;
  /** From the spawn to health's first answer (any status). */
  readonly listenMs: number;
  /** From the spawn to health's first 200. */
  readonly readyMs: number;
  /** From the spawn to the first audio byte of the first probe that got audio. */
  readonly firstSpeechMs: number;
  /** Probe calls refused (503, connection refused) before that one. */
  readonly refused: number;
  /** First audio of the probes before the kill, in ms from their request. */
  readonly beforeKillFirstAudioMs: readonly number[];
  /** First audio of the `PROBES_AFTER` probes after the first success. */
  readonly afterRestartFirstAudioMs: readonly number[];
}

export interface RestartSide {
  readonly name: 'new' | 'before';
  readonly commit: string;
  readonly rounds: readonly RestartRound[];
}

export interface RestartReport {
  readonly loadSeconds: number;
  readonly sides: readonly RestartSide[];
}

export interface RestartOptions {
  /** The built checkout to compare with; none: this one alone. */
  readonly before?: URL;
  readonly rounds: number;
  /** Load before each kill, in seconds. */
  readonly loadSeconds: number;
  readonly progress?: (line: string) => void;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const heard = (record: CallRecord) => record.end === 'completed' && record.firstAudioMs !== undefined;

/** One side: its deployment, its accounts and callers, and the rounds it has run. */
interface Side {
  readonly name: RestartSide['name'];
  readonly dir: URL;
  readonly deployment: SoakDeployment;
  readonly callers: Callers;
  readonly probes: Callers;
  readonly rounds: RestartRound[];
}

async function openSide(name: Side['name'], dir: URL): Promise<Side> {
  // Without the clause cache, every probe's first audio is an engine's: the cache would answer
  // the greeting each call opens with from the second call on.
  const deployment = await SoakDeployment.create('embedded', { dir, env: { CLAUSE_CACHE_MB: '0' } });
  const { keys } = await prepareAccounts(deployment.database);
  await deployment.start();
  const service = () => deployment.services[0]?.base ?? '';
  const turns = await loadTurns();
  return {
    name,
    dir,
    deployment,
    callers: new Callers({ base: service, keys, turns, random: randomSource(39) }),
    probes: new Callers({
      base: service,
      keys: [(keys[0] ?? []).slice(0, 10)],
      turns,
      random: randomSource(7),
    }),
    rounds: [],
  };
}

/** Probes until one gets audio; resolves it, with when it came from `zero` and the refusals before it. */
async function firstSpeech(probes: Callers, zero: number): Promise<{ atMs: number; refused: number }> {
  const deadline = zero + 120_000;
  for (let refused = 0; performance.now() < deadline; refused++) {
    const record = await probes.stream();
    if (heard(record)) return { atMs: record.startedAt + (record.firstAudioMs ?? 0) - zero, refused };
    await pause(PROBE_EVERY_MS);
  }
  throw new Error('no probe got audio in 120 s after the restart');
}

/** The first audio of `count` probes, one after another. */
async function probeFirstAudio(probes: Callers, count: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < count) {
    const record = await probes.stream();
    if (heard(record)) times.push(record.firstAudioMs ?? 0);
    await pause(PROBE_EVERY_MS);
  }
  return times;
}

/** A round: load, probes, kill -9 under load, the restart timed, the first probes after it. */
async function runRound(side: Side, loadSeconds: number): Promise<RestartRound> {
  const service = side.deployment.services[0] as SoakService;
  let loading = true;
  const loop = async () => {
    while (loading) {
      const record = await side.callers.call();
      if (record.end !== 'completed') await pause(RETRY_AFTER_MS);
    }
  };
  const load = Array.from({ length: CONCURRENT }, loop);
  try {
    await pause(Math.max(0, loadSeconds - 3) * 1000);
    const beforeKillFirstAudioMs = await probeFirstAudio(side.probes, PROBES_AFTER);
    const walBytes =
      statSync(`${side.deployment.folder}/ijwi.sqlite-wal`, { throwIfNoEntry: false })?.size ?? 0;
    await service.kill9();
    const zero = performance.now();
    const [timeline, speech] = await Promise.all([service.restart(POLL_MS), firstSpeech(side.probes, zero)]);
    const afterRestartFirstAudioMs = await probeFirstAudio(side.probes, PROBES_AFTER);
    return {
      walBytes,
      ...timeline,
      firstSpeechMs: speech.atMs,
      refused: speech.refused,
      beforeKillFirstAudioMs,
      afterRestartFirstAudioMs,
    };
  } finally {
    loading = false;
    await Promise.all(load);
  }
}

/** Runs the sides' rounds in turn; writes nothing. */
export async function benchRestart(options: RestartOptions): Promise<RestartReport> {
  const { progress = () => {} } = options;
  const dirs: [Side['name'], URL][] = [['new', new URL('../', import.meta.url)]];
  if (options.before) dirs.push(['before', options.before]);
  const sides: Side[] = [];
  try {
    for (const [name, dir] of dirs) sides.push(await openSide(name, dir));
    for (let round = 1; round <= options.rounds; round++) {
      for (const side of sides) {
        const result = await runRound(side, options.loadSeconds);
        side.rounds.push(result);
        progress(
          `restart ${side.name} ${round}/${options.rounds}: listening ${Math.round(result.listenMs)} ms, ready ${Math.round(result.readyMs)} ms, first audio ${Math.round(result.firstSpeechMs)} ms`,
        );
      }
    }
  } finally {
    await Promise.all(sides.map((side) => side.deployment.close()));
  }
  return {
    loadSeconds: options.loadSeconds,
    sides: sides.map((side) => ({ name: side.name, commit: commitOf(side.dir), rounds: side.rounds })),
  };
}

const median = (values: readonly number[]) => percentile(values, 50);

/** Prints each side's medians (and their range) and, with two sides, the new one's ratio to the other. */
export function printRestart(report: RestartReport): void {
  const figures: [string, (round: RestartRound) => readonly number[]][] = [
    ['listening, ms from spawn', (r) => [r.listenMs]],
    ['ready (health 200), ms', (r) => [r.readyMs]],
    ['first speech (first audio of a call), ms', (r) => [r.firstSpeechMs]],
    ['calls refused before it', (r) => [r.refused]],
    ['first audio before the kill, p50 ms', (r) => r.beforeKillFirstAudioMs],
    ['first audio of the next calls, p50 ms', (r) => r.afterRestartFirstAudioMs],
    ['write-ahead log at the kill, KB', (r) => [r.walBytes / 1024]],
  ];
  const [first, second] = report.sides;
  const cell = (side: RestartSide | undefined, values: (r: RestartRound) => readonly number[]) => {
    if (!side) return { text: '-', value: undefined };
    const perRound = side.rounds.map((r) => median(values(r)));
    const value = median(perRound);
    return {
      text: `${fixed(value, 0)} (${fixed(Math.min(...perRound), 0)}-${fixed(Math.max(...perRound), 0)})`,
      value,
    };
  };
  console.log(
    `\nRestart after kill -9 under load (${report.loadSeconds} s of load before each kill; median of ${first?.rounds.length ?? 0} rounds, range in brackets)`,
  );
  printTable(
    ['', `new (${first?.commit})`, ...(second ? [`before (${second.commit})`, 'new/before'] : [])],
    figures.map(([name, values]) => {
      const a = cell(first, values);
      const b = cell(second, values);
      return [name, a.text, ...(second ? [b.text, ratio(a.value, b.value)] : [])];
    }),
  );
}
