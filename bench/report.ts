import type { EngineId } from '../src/speech/engines/engine.ts';
import { type Chart, renderChart } from './chart.ts';
import type { EngineResults } from './engine.ts';
import type { GreetingResults } from './greeting.ts';
import { type LiveHttp, WORDS_PER_SECOND } from './live.ts';
import type { MemoryPhases } from './memory.ts';
import type { PhaseUsage } from './monitor.ts';
import type { EngineCapacity, HttpResults, SustainedStep } from './results.ts';
import { type BenchSettings, LATE_TOLERANCE_MS, targets } from './settings.ts';
import { fixed, type Percentiles, printTable, ratio } from './stats.ts';
import { benchEngines, benchLanguages, engineOf } from './turns.ts';

/** Everything one run measured, as written to bench/results/. */
export interface BenchReport {
  readonly date: string;
  readonly machine: { readonly cpus: number; readonly cpu: string; readonly node: string };
  readonly settings: BenchSettings;
  readonly poolSize: number;
  readonly engine: EngineResults;
  /** Each engine on its own, in process (`engines.ts`). */
  readonly engines: readonly EngineCapacity[];
  readonly http: HttpResults;
  /** The service's memory and each side's CPU, per phase of the HTTP run (`idle` first). */
  readonly phases: Readonly<Record<string, PhaseUsage>>;
  /** The service's peak resident memory over the whole run, by the kernel's count. */
  readonly highWaterMb: number | null;
  /** The memory scenario (`memory.ts`): the service's process tree per worker count. */
  readonly memory: readonly MemoryPhases[];
  /** Every target: the speed targets (`checkTargets`), then the memory targets (`checkMemoryTargets`). */
  readonly targets: readonly TargetCheck[];
  /** The greeting burst with and without the clause cache (`greeting.ts`). */
  readonly greeting: GreetingResults;
}

export interface TargetCheck {
  readonly name: string;
  readonly target: string;
  readonly measured: number | null;
  readonly met: boolean;
}

const pct = (p: Percentiles) => [fixed(p.p50), fixed(p.p95), fixed(p.p99)];

/** The most real-time calls in flight over the steps that passed (0 when none did). */
export const capacityOf = (steps: readonly SustainedStep[]) =>
  Math.max(0, ...steps.filter((s) => s.passed).map((s) => s.inFlightMean));

/** First byte p95 at one call, through HTTP and in the engine baseline, over an engine's languages. */
function oneCallOf(engine: EngineResults, http: HttpResults, id: EngineId): { http: number; engine: number } {
  const languages = benchLanguages.filter((language) => engineOf(language) === id);
  const worst = (values: number[]) => Math.max(...values);
  return {
    http: worst(http.sequential.filter((s) => languages.includes(s.language)).map((s) => s.ttfb.p95)),
    engine: worst(
      engine.sequential.filter((s) => languages.includes(s.language)).map((s) => s.firstAudio.p95),
    ),
  };
}

/** The issue's targets against what this run measured. */
export function checkTargets(engine: EngineResults, http: HttpResults): TargetCheck[] {
  const seq = Math.max(...http.sequential.map((s) => s.ttfb.p95));
  const burst64 = http.bursts.find((b) => b.size === 64)?.ttfb.p95 ?? Number.NaN;
  const sustained = capacityOf(http.sustained);
  const english = capacityOf(http.sustainedEnglish);
  const englishOneCall = oneCallOf(engine, http, engineOf('en'));
  const englishRatio = englishOneCall.http / englishOneCall.engine;
  const biggest = Math.max(...http.bursts.map((b) => b.size));
  const httpThroughput = http.bursts.find((b) => b.size === biggest)?.throughput ?? Number.NaN;
  const engineThroughput = engine.bursts.find((b) => b.size === biggest)?.throughput ?? Number.NaN;
  const fileRatio = Math.max(
    ...http.files.map((f) => {
      const base = engine.files.find((e) => e.language === f.language)?.ms.p50 ?? Number.NaN;
      return f.responseMs.p50 / base;
    }),
  );
  const fresh = http.freshBursts.find((b) => b.size === 64);
  const fresh64 = fresh?.firstByte.p95 ?? Number.NaN;
  const engine64 = engine.bursts.find((b) => b.size === 64)?.firstAudio.p95 ?? Number.NaN;
  const check = (name: string, target: string, measured: number, met: boolean): TargetCheck => ({
    name,
    target,
    measured: Number.isFinite(measured) ? measured : null,
    met: Number.isFinite(measured) && met,
  });
  return [
    check(
      'one stream: first byte p95 (ms)',
      `<= ${targets.sequentialTtfbP95Ms}`,
      seq,
      seq <= targets.sequentialTtfbP95Ms,
    ),
    check(
      'burst of 64: first byte p95 (ms)',
      `<= ${targets.burst64TtfbP95Ms}`,
      burst64,
      burst64 <= targets.burst64TtfbP95Ms,
    ),
    check(
      'sustained: real-time calls in flight',
      `>= ${targets.sustainedCalls}`,
      sustained,
      sustained >= targets.sustainedCalls,
    ),
    check(
      'English (Flite) sustained: real-time calls in flight',
      `>= ${targets.englishSustainedCalls}`,
      english,
      english >= targets.englishSustainedCalls,
    ),
    check(
      'English one stream: first byte p95 vs engine first clause',
      `<= ${targets.englishOneCallRatio}x`,
      englishRatio,
      englishRatio <= targets.englishOneCallRatio,
    ),
    check(
      `throughput vs engine (burst of ${biggest})`,
      `>= ${targets.throughputRatio}`,
      httpThroughput / engineThroughput,
      httpThroughput / engineThroughput >= targets.throughputRatio,
    ),
    check(
      'file, 10,000 characters, vs engine',
      `<= ${targets.fileRatio}x`,
      fileRatio,
      fileRatio <= targets.fileRatio,
    ),
    check(
      "fresh burst of 64: first byte p95 vs the peer's whole file p95",
      `<= ${targets.freshVsPeer}x`,
      fresh64 / (fresh?.peer?.wholeFile.p95 ?? Number.NaN),
      fresh64 / (fresh?.peer?.wholeFile.p95 ?? Number.NaN) <= targets.freshVsPeer,
    ),
    check(
      "fresh burst of 64: first byte p95 vs the engine's first clause p95",
      `<= ${targets.freshVsEngine}x`,
      fresh64 / engine64,
      fresh64 / engine64 <= targets.freshVsEngine,
    ),
  ];
}

/** Prints the run's tables. */
export function printReport(report: BenchReport): void {
  const { engine, http, phases } = report;
  console.log(`\nOne stream at a time (${report.settings.sequentialPasses} pass(es) over every turn), ms`);
  printTable(
    [
      'lang',
      'calls',
      'TTFB p50',
      'p95',
      'p99',
      'server p50',
      'p95',
      'p99',
      'engine p50',
      'p95',
      'p99',
      'TTFB/engine p50',
      'engine RTF',
    ],
    http.sequential.map((s) => {
      const e = engine.sequential.find((x) => x.language === s.language);
      return [
        s.language,
        `${s.calls - s.errors}/${s.calls}`,
        ...pct(s.ttfb),
        ...pct(s.serverTtfa),
        ...(e ? pct(e.firstAudio) : ['-', '-', '-']),
        ratio(s.ttfb.p50, e?.firstAudio.p50),
        // Real-time factor: seconds of synthesis per second of audio, one turn at a time.
        e ? (1 / e.speed).toFixed(4) : '-',
      ];
    }),
  );

  console.log(`\nBursts of simultaneous turns (${report.settings.burstRepeats} burst(s) each), ms`);
  printTable(
    [
      'calls',
      'TTFB p50',
      'p95',
      'p99',
      'TTLB p50',
      'p95',
      'p99',
      'late',
      'worst late',
      'engine 1st p95',
      'HTTP x rt',
      'engine x rt',
      'ratio',
    ],
    http.bursts.map((b) => {
      const e = engine.bursts.find((x) => x.size === b.size);
      return [
        `${b.size}${b.errors ? ` (${b.errors} err)` : ''}`,
        ...pct(b.ttfb),
        ...pct(b.ttlb),
        `${b.lateStreams}/${b.calls}`,
        fixed(b.worstLateMs),
        fixed(e?.firstAudio.p95),
        fixed(b.throughput, 0),
        fixed(e?.throughput, 0),
        ratio(b.throughput, e?.throughput),
      ];
    }),
  );

  console.log('\nPer engine: first byte p95 through HTTP against the engine baseline (its first clause), ms');
  printTable(
    ['engine', 'languages', 'one call', 'engine', 'ratio', ...burstHeaders(http)],
    benchEngines.map((id) => {
      const one = oneCallOf(engine, http, id);
      return [
        id,
        benchLanguages.filter((language) => engineOf(language) === id).join(' '),
        fixed(one.http),
        fixed(one.engine),
        ratio(one.http, one.engine),
        ...http.bursts.flatMap((b) => {
          const h = b.byEngine.find((x) => x.engine === id)?.firstByte.p95;
          const e = engine.bursts.find((x) => x.size === b.size)?.byEngine.find((x) => x.engine === id)
            ?.firstByte.p95;
          return [fixed(h), fixed(e), ratio(h, e)];
        }),
      ];
    }),
  );

  console.log(
    '\nThe espeak-ng voices one call at a time: with Flite in the same workers, and in a pool without it, ms',
  );
  printTable(
    ['lang', 'shared p50', 'p95', 'alone p50', 'p95', 'shared/alone p50', 'p95'],
    engine.espeakAlone.map((alone) => {
      const shared = engine.sequential.find((s) => s.language === alone.language);
      return [
        alone.language,
        fixed(shared?.firstAudio.p50),
        fixed(shared?.firstAudio.p95),
        fixed(alone.firstAudio.p50),
        fixed(alone.firstAudio.p95),
        ratio(shared?.firstAudio.p50, alone.firstAudio.p50),
        ratio(shared?.firstAudio.p95, alone.firstAudio.p95),
      ];
    }),
  );

  printEngines(report.engines, report.settings);

  printSustained(
    `Sustained arrivals, every language (open model, ${report.settings.sustainedSeconds} s per rate), ms`,
    http.sustained,
    phases,
    'sustained',
  );
  printSustained(
    `Sustained arrivals, English only: the Flite voices (${report.settings.sustainedSeconds} s per rate), ms`,
    http.sustainedEnglish,
    phases,
    'sustained en',
  );

  console.log(`\nFile endpoint, ${report.settings.fileCharacters} characters, ms (p50)`);
  printTable(
    ['lang', 'chars', 'audio s', 'response', 'with download', 'engine', 'response/engine'],
    http.files.map((f) => {
      const e = engine.files.find((x) => x.language === f.language);
      return [
        f.language,
        String(f.characters),
        fixed(f.audioSeconds),
        fixed(f.responseMs.p50),
        fixed(f.downloadMs.p50),
        fixed(e?.ms.p50),
        ratio(f.responseMs.p50, e?.ms.p50),
      ];
    }),
  );

  const h = http.hangUp;
  console.log(`\nHang-up: a short call the moment ${h.longStreams} long streams are dropped, ms`);
  printTable(
    ['case', 'TTFB p50', 'p95', 'max'],
    [
      ['idle server', fixed(h.idleTtfb.p50), fixed(h.idleTtfb.p95), fixed(h.idleTtfb.max)],
      [
        'after hang-up',
        fixed(h.afterHangUpTtfb.p50),
        fixed(h.afterHangUpTtfb.p95),
        fixed(h.afterHangUpTtfb.max),
      ],
    ],
  );

  console.log(
    "\nBursts of fresh calls (new connections, fetch, one key per call, mulaw_8k), ms: Ijwi's first byte beside the naive peer's whole file (one espeak-ng process per request) and the raw engine's first clause for a burst of the same size",
  );
  printTable(
    [
      'calls',
      'errors',
      'first byte p50',
      'p95',
      'server p95',
      'last byte p95',
      'peer file p50',
      'p95',
      'engine p95',
      'vs peer',
      'vs engine',
    ],
    http.freshBursts.map((b) => {
      const engineP95 = engine.bursts.find((e) => e.size === b.size)?.firstAudio.p95;
      return [
        String(b.size),
        String(b.errors + (b.peer?.errors ?? 0)),
        fixed(b.firstByte.p50),
        fixed(b.firstByte.p95),
        fixed(b.serverTtfa.p95),
        fixed(b.lastByte.p95),
        fixed(b.peer?.wholeFile.p50),
        fixed(b.peer?.wholeFile.p95),
        fixed(engineP95),
        ratio(b.firstByte.p95, b.peer?.wholeFile.p95),
        ratio(b.firstByte.p95, engineP95),
      ];
    }),
  );

  printLive(http.live, engine);

  console.log('\nService resources by phase: resident memory, CPU in cores (1 = one core busy)');
  printTable(
    ['phase', 'seconds', 'peak MB', 'service CPU', 'main thread', 'load generator'],
    [
      ...Object.entries(phases).map(([phase, u]) => [
        phase,
        fixed(u.seconds),
        fixed(u.peakMb, 0),
        fixed(u.serviceCores, 2),
        fixed(u.mainThreadCores, 2),
        fixed(u.loadGeneratorCores, 2),
      ]),
      ['whole run (kernel high-water mark)', '', fixed(report.highWaterMb, 0), '', '', ''],
    ],
  );

  console.log('\nTargets');
  printTable(
    ['target', 'goal', 'measured', 'met'],
    report.targets.map((t) => [t.name, t.target, fixed(t.measured, 2), t.met ? 'yes' : 'NO']),
  );
}

/** The live scenario's table; without an engine baseline (`--only live`), its columns are empty. */
export function printLive(live: readonly LiveHttp[], engine?: EngineResults): void {
  console.log(
    `\nLive WebSocket: replies fed word by word at ${WORDS_PER_SECOND} words/s; from the piece that completes the first clause to its first audio, ms`,
  );
  printTable(
    [
      'sockets',
      'calls',
      'errors',
      'p50',
      'p95',
      'server p50',
      'p95',
      'engine p50',
      'p95',
      'ratio p50',
      'ratio p95',
    ],
    live.map((l) => {
      const base = engine && liveBaseline(engine, l.sockets);
      return [
        String(l.sockets),
        String(l.calls),
        String(l.errors),
        fixed(l.clauseToAudio.p50),
        fixed(l.clauseToAudio.p95),
        fixed(l.serverTtfa.p50),
        fixed(l.serverTtfa.p95),
        fixed(base?.p50),
        fixed(base?.p95),
        ratio(l.clauseToAudio.p50, base?.p50),
        ratio(l.clauseToAudio.p95, base?.p95),
      ];
    }),
  );
}

/**
 * The raw engine's first audio for as many first clauses at once as there are live sockets: one
 * at a time (every language pooled) for one socket, the burst of the same size otherwise.
 */
export function liveBaseline(engine: EngineResults, sockets: number): Percentiles | undefined {
  if (sockets > 1) return engine.bursts.find((b) => b.size === sockets)?.firstAudio;
  const p50s = engine.sequential.map((s) => s.firstAudio.p50).sort((a, b) => a - b);
  return {
    n: engine.sequential.reduce((n, s) => n + s.firstAudio.n, 0),
    p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
    p95: Math.max(...engine.sequential.map((s) => s.firstAudio.p95)),
    p99: Math.max(...engine.sequential.map((s) => s.firstAudio.p99)),
    max: Math.max(...engine.sequential.map((s) => s.firstAudio.max)),
  };
}

/** Burst columns of the per-engine table: HTTP, engine and their ratio, for each burst size. */
function burstHeaders(http: HttpResults): string[] {
  return http.bursts.flatMap((b) => [`burst ${b.size}`, 'engine', 'ratio']);
}

function printEngines(engines: readonly EngineCapacity[], settings: BenchSettings): void {
  console.log(
    `\nEngines, each on its own in this process (no HTTP): ${settings.engineTurns} turns a language one call at a time, then ${settings.engineCalls.join(', ')} two-sentence streams at once until a listener waits`,
  );
  printTable(
    [
      'engine',
      'calls',
      'RTF',
      'first clause p50',
      'p95',
      'calls in flight',
      'first audio p95',
      'stopped by',
      'service call limit',
      'voices',
    ],
    engines.map((e) => {
      return [
        e.engine,
        String(e.calls),
        fixed(e.rtf, 4),
        fixed(e.firstClause.p50),
        fixed(e.firstClause.p95),
        `${e.atLeast ? '>= ' : ''}${e.callsInFlight}`,
        fixed(e.ladder.find((step) => step.calls === e.callsInFlight)?.firstAudio.p95),
        stoppedBy(e, settings),
        e.serviceCallLimit === undefined ? '-' : String(e.serviceCallLimit),
        e.voices,
      ];
    }),
  );
  console.log(
    `RTF: seconds of synthesis per second of audio, whole calls (lower is faster). Calls in flight: the most streams started at once of which none made its listener wait over ${LATE_TOLERANCE_MS} ms after its first audio; first audio p95 at that many. Service call limit: what the service admits at once (NEURAL_MAX_CALLS); the bench lifts it.`,
  );
}

/** Why an engine's ladder ended: the step that failed, or no step failed before time or steps ran out. */
function stoppedBy(e: EngineCapacity, settings: BenchSettings): string {
  const last = e.ladder.at(-1);
  if (!last) return '-';
  if (last.passed) return last.calls === settings.engineCalls.at(-1) ? 'end of ladder' : 'time';
  const errors = last.errors ? `, ${last.errors} err` : '';
  return `${last.calls}: ${last.late} late (worst ${fixed(last.worstLateMs, 0)} ms)${errors}`;
}

function printSustained(
  title: string,
  steps: readonly SustainedStep[],
  phases: BenchReport['phases'],
  label: string,
): void {
  console.log(`\n${title}`);
  printTable(
    [
      'calls/s',
      'in flight',
      'peak',
      'TTFB p50',
      'p95',
      'p99',
      'server p95',
      'late',
      'worst late',
      'errors',
      'RSS MB',
      'client lag',
      'passed',
    ],
    steps.map((s) => [
      String(s.rate),
      fixed(s.inFlightMean, 0),
      String(s.inFlightPeak),
      ...pct(s.latencies.ttfb),
      fixed(s.latencies.serverTtfa.p95),
      `${s.lateStreams}/${s.latencies.calls}`,
      fixed(s.worstLateMs),
      String(s.latencies.errors),
      fixed(phases[`${label} ${s.rate}/s`]?.peakMb, 0),
      fixed(s.scheduleLagMs),
      s.passed ? 'yes' : 'no',
    ]),
  );
}

/** The chart the README shows: first byte against calls in flight. */
export function ttfbChart(report: BenchReport): string {
  const { engine, http } = report;
  const seqP = (p: 'p50' | 'p95') => Math.max(...http.sequential.map((s) => s.ttfb[p]));
  const engineSeq = Math.max(...engine.sequential.map((s) => s.firstAudio.p95));
  const chart: Chart = {
    title: 'Time to first audio byte against concurrency',
    xLabel: 'calls at once (bursts), calls in flight (sustained)',
    yLabel: 'time to first byte, ms',
    series: [
      {
        name: 'burst, HTTP p95',
        color: '#1f5fbf',
        points: [[1, seqP('p95')], ...http.bursts.map((b) => [b.size, b.ttfb.p95] as const)],
      },
      {
        name: 'burst, HTTP p50',
        color: '#6fa0e8',
        points: [[1, seqP('p50')], ...http.bursts.map((b) => [b.size, b.ttfb.p50] as const)],
      },
      {
        name: 'burst, engine p95',
        color: '#777',
        dashed: true,
        points: [[1, engineSeq], ...engine.bursts.map((b) => [b.size, b.firstAudio.p95] as const)],
      },
      {
        name: 'sustained, HTTP p95',
        color: '#2a9d4b',
        points: http.sustained.map((s) => [s.inFlightMean, s.latencies.ttfb.p95] as const),
      },
    ],
    markers: [
      { x: 1, y: targets.sequentialTtfbP95Ms, label: 'target' },
      { x: 64, y: targets.burst64TtfbP95Ms, label: 'target' },
      { x: targets.sustainedCalls, y: targets.sustainedTtfbP95Ms, label: 'target' },
    ],
  };
  return renderChart(chart);
}
