import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import type { LanguageCode } from '../src/speech/text/verbalizer.ts';
import { type CheckedFigure, checkFigure, type Figure } from './against-table.ts';
import { type CpuPass, cpuPass, cpuPerAudioSecond, loadCheckoutSpeech } from './engine-cpu.ts';
import { type FreshCall, freshBurst, freshCalls } from './fresh-burst-run.ts';
import { callOf, startSide } from './greeting.ts';
import { type StreamCall, streamCall } from './http-client.ts';
import { benchMemory, Caller, type MemoryPhases } from './memory.ts';
import { capacityOf } from './report.ts';
import { type FreshCalls, latenciesOf, median, type SequentialHttp, type SustainedStep } from './results.ts';
import { NO_CLAUSE_CACHE, prepareData, type RunningServer, startServer } from './server.ts';
import { benchSettings, targets, WARM_UP_BURST } from './settings.ts';
import { sustainedStep } from './sustained.ts';
import { benchLanguages, interleave, loadTurns, type Turn, type Turns } from './turns.ts';

// `npm run bench -- --against DIR`: this checkout ("new") and another, built one ("before")
// measured in the same run, the targets of a change held to their ratio. Where a scenario
// repeats, the two take turns and swap who goes first each round (new, before; before, new; ...),
// so the machine's drift and noise fall on both alike.

export type SideName = 'new' | 'before';
export type BySide<T> = Readonly<Record<SideName, T>>;

interface Side {
  readonly name: SideName;
  readonly dir: URL;
}

/** How much of each figure a run measures. */
export interface AgainstSettings {
  readonly quick: boolean;
  /** Turns of each language spoken per engine pass, and passes timed per side. */
  readonly engineTurns: number;
  readonly engineRounds: number;
  /** Service starts per side and worker count of the memory figures. */
  readonly memoryRounds: number;
  /** Passes over every turn, one call at a time. */
  readonly sequentialPasses: number;
  /** Bursts of 64 fresh calls per side. */
  readonly freshRounds: number;
  /** Arrival rates of the Kinyarwanda ladder (calls a second), and of the mixed one. */
  readonly kinyarwandaRates: readonly number[];
  readonly mixedRates: readonly number[];
  readonly sustainedSeconds: number;
  readonly sustainedStopAfterFailures: number;
  /** Greeting rounds: each a cached burst and a never-said burst per side. */
  readonly greetingRounds: number;
}

/** Rates from `first` up to `last`, each `factor` times the one before, rounded. */
export function ladder(first: number, factor: number, last: number): number[] {
  const rates: number[] = [];
  for (let rate = first; rate <= last; rate *= factor) rates.push(Math.round(rate));
  return rates;
}

export function againstSettings(quick: boolean): AgainstSettings {
  const bench = benchSettings(quick);
  return {
    quick,
    engineTurns: bench.engineTurns,
    engineRounds: quick ? 3 : 7,
    memoryRounds: quick ? 1 : 3,
    sequentialPasses: quick ? 3 : 5,
    freshRounds: quick ? 2 : 5,
    // From a rate every build keeps up with on a loaded machine, each step a fixed factor above the
    // last, so that the two sides' capacities are told apart by about that factor (the target is
    // 1.5x): finer in the full run, coarser in a quick one.
    kinyarwandaRates: ladder(10, quick ? 1.4 : 1.2, 400),
    mixedRates: ladder(10, quick ? 2 : 1.4, 400),
    sustainedSeconds: bench.sustainedSeconds,
    sustainedStopAfterFailures: quick ? 1 : 2,
    greetingRounds: bench.greetingRounds,
  };
}

/** The calls of every burst: the bench's burst of 64. */
const BURST = 64;
const SETTLE_MS = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sides in the order of `round`: new first in even rounds, before first in odd ones. */
function inTurn<T>(round: number, sides: readonly T[]): readonly T[] {
  return round % 2 === 0 ? sides : [...sides].reverse();
}

export interface EngineCpu {
  /** CPU ms per second of audio, in process, by language, and per engine. */
  readonly rw: number;
  readonly fr: number;
  readonly en: number;
  readonly espeakNg: number;
  readonly flite: number;
}

/** Figure 1: each side's engines in this process, their passes taking turns. */
async function engineCpu(
  sides: readonly Side[],
  turns: Turns,
  settings: AgainstSettings,
  progress: (line: string) => void,
): Promise<BySide<EngineCpu>> {
  const first = (language: LanguageCode) => turns[language].slice(0, settings.engineTurns);
  const selected: Turns = { rw: first('rw'), en: first('en'), fr: first('fr') };
  const lines = interleave(selected);
  const speech = [];
  for (const side of sides) {
    progress(`engine CPU: loading ${side.name}'s engines`);
    const loaded = await loadCheckoutSpeech(side.dir, lines);
    // The first pass compiles the engines' code; it is not counted.
    await cpuPass(loaded);
    speech.push({ side, loaded, passes: [] as CpuPass[] });
  }
  for (let round = 0; round < settings.engineRounds; round++) {
    progress(`engine CPU: round ${round + 1} of ${settings.engineRounds}`);
    for (const one of inTurn(round, speech)) one.passes.push(await cpuPass(one.loaded));
  }
  const of = (passes: readonly CpuPass[], languages: readonly LanguageCode[]) =>
    cpuPerAudioSecond(passes, languages);
  const result = (passes: readonly CpuPass[]): EngineCpu => ({
    rw: of(passes, ['rw']),
    fr: of(passes, ['fr']),
    en: of(passes, ['en']),
    espeakNg: of(passes, ['rw', 'fr']),
    flite: of(passes, ['en']),
  });
  return bySide(speech.map((one) => [one.side.name, result(one.passes)]));
}

function bySide<T>(entries: readonly (readonly [SideName, T])[]): BySide<T> {
  const map = Object.fromEntries(entries) as Partial<Record<SideName, T>>;
  if (map.new === undefined || map.before === undefined) throw new Error('a side is missing');
  return { new: map.new, before: map.before };
}

export interface MemoryFigures {
  /** The memory scenario's phases, per start, `POOL_SIZE` 1 and 2. */
  readonly runs: readonly MemoryPhases[];
  /** Idle tree RSS at 2 workers less that at 1: what one pool worker holds after its calls; median. */
  readonly workerMb: number;
  /** The same at ready (warmed, no call yet). */
  readonly workerReadyMb: number;
  /** Peak of the tree with `targets.memoryCalls` calls in flight, 2 workers; median. */
  readonly peakMb: number;
}

/** Figure 2: the memory scenario at 1 and 2 workers, each start of one side followed by the other's. */
async function memory(
  sides: readonly Side[],
  settings: AgainstSettings,
  progress: (line: string) => void,
): Promise<BySide<MemoryFigures>> {
  const runs = new Map<SideName, MemoryPhases[]>(sides.map((side) => [side.name, []]));
  for (let round = 0; round < settings.memoryRounds; round++) {
    for (const workers of [1, targets.memoryWorkers]) {
      for (const side of inTurn(round, sides)) {
        const [phases] = await benchMemory({
          workers: [workers],
          dir: side.dir,
          files: false,
          progress: (line) =>
            progress(`${line}: ${side.name}, round ${round + 1} of ${settings.memoryRounds}`),
        });
        if (phases) runs.get(side.name)?.push(phases);
      }
    }
  }
  return bySide(
    sides.map((side) => {
      const own = runs.get(side.name) ?? [];
      const at = (workers: number) => own.filter((r) => r.workers === workers);
      const difference = (field: 'idleMb' | 'readyMb') =>
        median(at(targets.memoryWorkers).map((r, i) => r[field] - (at(1)[i]?.[field] ?? Number.NaN)));
      return [
        side.name,
        {
          runs: own,
          workerMb: difference('idleMb'),
          workerReadyMb: difference('readyMb'),
          peakMb: median(at(targets.memoryWorkers).map((r) => r.burstPeakMb)),
        },
      ] as const;
    }),
  );
}

/** One side's service with the clause cache off, its customers' keys, and calls that take keys in turn. */
interface Service {
  readonly side: Side;
  readonly server: RunningServer;
  readonly dataDir: string;
  /** A caller for one phase (its connections closed at its end). */
  caller(): Caller;
  /** `count` keys, each used by no other call of this run so far. */
  freshKeys(count: number): string[];
}

async function startService(side: Side, progress: (line: string) => void): Promise<Service> {
  progress(`service: starting ${side.name}`);
  const data = await prepareData(40, 25, side.dir);
  const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE, dir: side.dir });
  let next = 0;
  const nextKey = () => data.keys[next++ % data.keys.length] ?? '';
  return {
    side,
    server,
    dataDir: data.dataDir,
    caller: () => new Caller(server.base, nextKey),
    freshKeys: (count) => Array.from({ length: count }, nextKey),
  };
}

async function stopService(service: Service): Promise<void> {
  await service.server.stop();
  await rm(service.dataDir, { recursive: true, force: true });
}

/** Runs `work` with a caller of its own, closed afterwards. */
async function withCaller<T>(service: Service, work: (caller: Caller) => Promise<T>): Promise<T> {
  const caller = service.caller();
  try {
    return await work(caller);
  } finally {
    caller.close();
  }
}

const call = (caller: Caller, turn: Turn): Promise<StreamCall> =>
  streamCall(caller.target(), turn.language, turn.text, turn.speakerId);

/** Warmed as the bench warms its service: every turn once, then a burst. */
async function warmUp(service: Service, all: readonly Turn[]): Promise<void> {
  await withCaller(service, async (caller) => {
    for (const turn of all) await call(caller, turn);
    await caller.burst(all, WARM_UP_BURST);
  });
}

/**
 * Figure 4: every turn one call at a time, the sides taking turns call by call, on kept-alive
 * connections (the connection is open before the call, as a telephony gateway keeps it).
 */
async function oneAtATime(
  services: readonly Service[],
  all: readonly Turn[],
  passes: number,
): Promise<BySide<SequentialHttp[]>> {
  const callers = services.map((service) => ({
    service,
    caller: service.caller(),
    calls: [] as StreamCall[],
  }));
  try {
    let round = 0;
    for (let pass = 0; pass < passes; pass++) {
      for (const turn of all) {
        for (const one of inTurn(round++, callers)) one.calls.push(await call(one.caller, turn));
      }
    }
  } finally {
    for (const one of callers) one.caller.close();
  }
  return bySide(
    callers.map((one) => [
      one.service.side.name,
      benchLanguages.map((language) => ({
        language,
        ...latenciesOf(one.calls.filter((c) => c.language === language)),
      })),
    ]),
  );
}

/** Figure 5: bursts of 64 fresh calls (new connections, `mulaw_8k`), the languages mixed. */
async function freshBursts(
  services: readonly Service[],
  all: readonly Turn[],
  rounds: number,
  progress: (line: string) => void,
): Promise<BySide<FreshCalls>> {
  const calls = new Map<SideName, FreshCall[]>(services.map((s) => [s.side.name, []]));
  for (let round = 0; round < rounds; round++) {
    const turns = Array.from({ length: BURST }, (_, i) => all[(round * BURST + i) % all.length] as Turn);
    for (const service of inTurn(round, services)) {
      progress(`fresh burst ${BURST}: ${service.side.name}, round ${round + 1} of ${rounds}`);
      const base = service.server.base;
      const keys = service.freshKeys(turns.length);
      calls
        .get(service.side.name)
        ?.push(...(await freshBurst({ type: 'fresh-burst', base, keys, turns, target: 'ijwi' })));
      await sleep(SETTLE_MS);
    }
  }
  return bySide(services.map((s) => [s.side.name, freshCalls(calls.get(s.side.name) ?? [])]));
}

/**
 * Figure 3: the sustained ladder over `turns`, one rate at a time on each side in turn; a side
 * leaves the ladder after `sustainedStopAfterFailures` failed rates in a row, and the ladder ends
 * when both have.
 */
async function sustained(
  services: readonly Service[],
  turns: readonly Turn[],
  rates: readonly number[],
  settings: AgainstSettings,
  label: string,
  progress: (line: string) => void,
): Promise<BySide<SustainedStep[]>> {
  const ladders = services.map((service) => ({
    service,
    steps: [] as SustainedStep[],
    failures: 0,
    offset: 0,
  }));
  for (const [round, rate] of rates.entries()) {
    const climbing = ladders.filter((l) => l.failures < settings.sustainedStopAfterFailures);
    if (climbing.length === 0) break;
    for (const ladder of inTurn(round, climbing)) {
      progress(`sustained ${label} ${rate}/s: ${ladder.service.side.name}`);
      const step = await withCaller(ladder.service, (caller) =>
        sustainedStep(rate, settings.sustainedSeconds, targets.sustainedTtfbP95Ms, (i) =>
          call(caller, turns[(ladder.offset + i) % turns.length] as Turn),
        ),
      );
      ladder.offset += step.latencies.calls;
      ladder.steps.push(step);
      ladder.failures = step.passed ? 0 : ladder.failures + 1;
      await sleep(SETTLE_MS);
    }
  }
  return bySide(ladders.map((l) => [l.service.side.name, l.steps]));
}

export interface GreetingSide {
  /** Calls opening with the greeting the clause cache holds. */
  readonly cached: FreshCalls;
  /** The same calls opening with a clause never said before (each call its own). */
  readonly neverSaid: FreshCalls;
}

/**
 * An opening of about the greeting's length that no call has said: the call's own number in it
 * (a run's numbers differ, so no burst finds one in the cache).
 */
const neverSaid = (n: number) => `Thank you for calling Kigali ${n + 1}.`;

/**
 * Figure 6: per side, a service with its clause cache (the default 8 MB) that has said the
 * greeting, and bursts of 64 fresh calls opening with it against the same calls opening with
 * clauses never said; the greeting is said once again before each cached burst, as a busy line
 * keeps it recent.
 */
async function greeting(
  sides: readonly Side[],
  turns: Turns,
  rounds: number,
  progress: (line: string) => void,
): Promise<BySide<GreetingSide>> {
  const callsPerRound = 1 + 2 * BURST;
  const started = [];
  try {
    for (const side of sides) {
      progress(`greeting: starting ${side.name} with its clause cache`);
      started.push({ side, service: await startSide(8, rounds * callsPerRound, turns, side.dir) });
    }
    const calls = new Map<string, FreshCall[]>();
    const add = (key: string, list: readonly FreshCall[]) =>
      calls.set(key, [...(calls.get(key) ?? []), ...list]);
    for (let round = 0; round < rounds; round++) {
      const ns = Array.from({ length: BURST }, (_, i) => round * BURST + i);
      for (const kind of inTurn(round, ['cached', 'neverSaid'] as const)) {
        for (const { side, service } of inTurn(round, started)) {
          progress(
            `greeting: ${side.name}, ${kind === 'cached' ? 'the greeting' : 'openings never said'}, round ${round + 1}`,
          );
          if (kind === 'cached') await service.sayGreeting();
          await sleep(SETTLE_MS);
          add(
            `${side.name} ${kind}`,
            await service.burst(ns.map((n) => (kind === 'cached' ? callOf(n) : callOf(n, neverSaid(n))))),
          );
        }
      }
    }
    return bySide(
      sides.map((side) => [
        side.name,
        {
          cached: freshCalls(calls.get(`${side.name} cached`) ?? []),
          neverSaid: freshCalls(calls.get(`${side.name} neverSaid`) ?? []),
        },
      ]),
    );
  } finally {
    for (const { service } of started) await service.stop();
  }
}

export interface AgainstResults {
  readonly date: string;
  readonly machine: { readonly cpus: number; readonly cpu: string; readonly node: string };
  /** Each side's commit (and whether its work tree had changes). */
  readonly commits: BySide<string>;
  readonly settings: AgainstSettings;
  readonly engineCpu: BySide<EngineCpu>;
  readonly memory: BySide<MemoryFigures>;
  readonly oneAtATime: BySide<SequentialHttp[]>;
  readonly freshBurst: BySide<FreshCalls>;
  readonly sustainedKinyarwanda: BySide<SustainedStep[]>;
  readonly sustainedMixed: BySide<SustainedStep[]>;
  readonly sustainedEnglish: BySide<SustainedStep[]>;
  readonly greeting: BySide<GreetingSide>;
  readonly figures: readonly CheckedFigure[];
}

/** A checkout's commit, marked `+changes` when its work tree differs from it. */
export function commitOf(dir: URL): string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir.pathname, ...args], { encoding: 'utf8' }).trim();
  try {
    const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${changed ? '+changes' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** Runs every figure on both sides: in process first, then the services. */
export async function benchAgainst(options: {
  readonly before: URL;
  readonly settings: AgainstSettings;
  readonly progress: (line: string) => void;
}): Promise<AgainstResults> {
  const { settings, progress } = options;
  const sides: Side[] = [
    { name: 'new', dir: new URL('..', import.meta.url) },
    { name: 'before', dir: options.before },
  ];
  const turns = await loadTurns();
  const all = interleave(turns);
  const cpu = await engineCpu(sides, turns, settings, progress);
  const memoryFigures = await memory(sides, settings, progress);

  const services: Service[] = [];
  let http: Pick<
    AgainstResults,
    'oneAtATime' | 'freshBurst' | 'sustainedKinyarwanda' | 'sustainedMixed' | 'sustainedEnglish'
  >;
  try {
    for (const side of sides) services.push(await startService(side, progress));
    for (const service of services) {
      progress(`service: warming ${service.side.name}`);
      await warmUp(service, all);
    }
    progress('one call at a time');
    const oneAtATimeFigures = await oneAtATime(services, all, settings.sequentialPasses);
    const fresh = await freshBursts(services, all, settings.freshRounds, progress);
    const kinyarwanda = all.filter((turn) => turn.language === 'rw');
    const english = all.filter((turn) => turn.language === 'en');
    http = {
      oneAtATime: oneAtATimeFigures,
      freshBurst: fresh,
      sustainedKinyarwanda: await sustained(
        services,
        kinyarwanda,
        settings.kinyarwandaRates,
        settings,
        'rw',
        progress,
      ),
      sustainedMixed: await sustained(services, all, settings.mixedRates, settings, 'mixed', progress),
      // English alone (Flite), on the mixed ladder: its calls cost the most CPU.
      sustainedEnglish: await sustained(services, english, settings.mixedRates, settings, 'en', progress),
    };
  } finally {
    for (const service of services) await stopService(service);
  }
  const greetingFigures = await greeting(sides, turns, settings.greetingRounds, progress);
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    commits: bySide(sides.map((side) => [side.name, commitOf(side.dir)])),
    settings,
    engineCpu: cpu,
    memory: memoryFigures,
    ...http,
    greeting: greetingFigures,
  };
  return { ...results, figures: againstFigures(results).map(checkFigure) };
}

/** Issue 40's figures and targets, from what a run measured. */
export function againstFigures(results: Omit<AgainstResults, 'figures'>): Figure[] {
  const both = <T>(of: (side: T) => number, values: BySide<T>) => ({
    new: of(values.new),
    before: of(values.before),
  });
  const ttfbP95 = (language: LanguageCode) => (side: readonly SequentialHttp[]) =>
    side.find((s) => s.language === language)?.ttfb.p95 ?? Number.NaN;
  const greetingRatio = (side: GreetingSide) => side.cached.firstByte.p95 / side.neverSaid.firstByte.p95;
  const cpu = 'CPU ms / audio s';
  return [
    {
      name: 'engine CPU, espeak-ng (rw, fr)',
      unit: cpu,
      digits: 2,
      ...both((c) => c.espeakNg, results.engineCpu),
      target: { kind: 'ratio-at-most', value: 0.5 },
    },
    { name: 'engine CPU, espeak-ng rw', unit: cpu, digits: 2, ...both((c) => c.rw, results.engineCpu) },
    { name: 'engine CPU, espeak-ng fr', unit: cpu, digits: 2, ...both((c) => c.fr, results.engineCpu) },
    {
      name: 'engine CPU, Flite (en)',
      unit: cpu,
      digits: 2,
      ...both((c) => c.flite, results.engineCpu),
      target: { kind: 'ratio-at-most', value: 0.35 },
    },
    {
      name: 'pool worker, idle RSS (POOL_SIZE 2 - 1)',
      unit: 'MB',
      digits: 0,
      ...both((m) => m.workerMb, results.memory),
      target: { kind: 'less-by-at-least', value: 8 },
    },
    {
      name: 'pool worker, ready RSS (POOL_SIZE 2 - 1)',
      unit: 'MB',
      digits: 0,
      ...both((m) => m.workerReadyMb, results.memory),
    },
    {
      name: `process tree peak, ${targets.memoryCalls} calls`,
      unit: 'MB',
      digits: 0,
      ...both((m) => m.peakMb, results.memory),
      target: { kind: 'at-most', value: 180 },
    },
    {
      name: 'sustained calls in flight, rw',
      unit: 'calls',
      digits: 0,
      ...both(capacityOf, results.sustainedKinyarwanda),
      target: { kind: 'ratio-at-least', value: 1.5 },
    },
    {
      name: 'sustained calls in flight, mixed',
      unit: 'calls',
      digits: 0,
      ...both(capacityOf, results.sustainedMixed),
    },
    {
      name: 'sustained calls in flight, en',
      unit: 'calls',
      digits: 0,
      ...both(capacityOf, results.sustainedEnglish),
      target: { kind: 'ratio-at-least', value: 2 },
    },
    {
      name: 'one call, first byte p95, rw',
      unit: 'ms',
      digits: 1,
      ...both(ttfbP95('rw'), results.oneAtATime),
      target: { kind: 'ratio-at-most', value: 0.7 },
    },
    {
      name: 'one call, first byte p95, fr',
      unit: 'ms',
      digits: 1,
      ...both(ttfbP95('fr'), results.oneAtATime),
      target: { kind: 'ratio-at-most', value: 0.7 },
    },
    {
      name: 'one call, first byte p95, en',
      unit: 'ms',
      digits: 1,
      ...both(ttfbP95('en'), results.oneAtATime),
      target: { kind: 'ratio-at-most', value: 0.6 },
    },
    {
      name: `fresh burst ${BURST}, first byte p95`,
      unit: 'ms',
      digits: 0,
      ...both((f) => f.firstByte.p95, results.freshBurst),
      target: { kind: 'ratio-at-most', value: 0.75 },
    },
    {
      name: `burst ${BURST} opening with the cached greeting, first byte p95`,
      unit: 'ms',
      digits: 0,
      ...both((g) => g.cached.firstByte.p95, results.greeting),
    },
    {
      name: `burst ${BURST} opening with clauses never said, first byte p95`,
      unit: 'ms',
      digits: 0,
      ...both((g) => g.neverSaid.firstByte.p95, results.greeting),
    },
    {
      name: `burst ${BURST}, greeting cached / never said, p95`,
      unit: 'x',
      digits: 2,
      ...both(greetingRatio, results.greeting),
      target: { kind: 'at-most', value: 0.2 },
    },
  ];
}
