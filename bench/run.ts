import { fork } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { EncodingThreads } from '../src/speech/audio/encoding-threads.ts';
import { EnginePool } from '../src/speech/pool/engine-pool.ts';
import { warmUpPlan } from '../src/speech/pool/warm-up.ts';
import { builtInVoices } from '../src/speech/voices/voices.ts';
import { againstSettings, benchAgainst } from './against.ts';
import { printAgainst } from './against-table.ts';
import { benchCompat, printCompat, saveCompat } from './compat.ts';
import { benchDictionaries, printDictionaries, saveDictionaries } from './dictionaries.ts';
import { benchEngine, type EngineResults } from './engine.ts';
import { benchEngineCapacities } from './engines.ts';
import { benchFormats, type FormatResults, printFormats } from './formats.ts';
import { benchGreeting, printGreeting } from './greeting.ts';
import { markdownCost, printMarkdownCost } from './markdown.ts';
import { benchMemory, checkMemoryTargets, type MemoryPhases, printMemory } from './memory.ts';
import { benchMetricsOverhead, metricsOverheadSettings, printMetricsOverhead } from './metrics-overhead.ts';
import { ProcessMonitor } from './monitor.ts';
import { startPeer } from './peer-process.ts';
import {
  type BenchReport,
  checkTargets,
  printLive,
  printReport,
  type TargetCheck,
  ttfbChart,
} from './report.ts';
import { benchRestart, printRestart } from './restart.ts';
import type { LoadMessage, LoadPlan } from './results.ts';
import { NO_CLAUSE_CACHE, prepareData, startServer } from './server.ts';
import { benchSettings } from './settings.ts';
import { benchSoak, soakFaults } from './soak/soak.ts';
import { interleave, loadTurns } from './turns.ts';
import { decisionCost, detectorScores, printWordLanguage } from './word-language/detector.ts';

// `npm run bench` (`-- --quick` for a short run; `-- --voice-pack DIR` to bench a neural voice
// pack; `-- --only live|markdown|word-language|greeting|formats|compat|dictionaries`, `-- --metrics-overhead` or `-- --memory` for one scenario alone): the raw engine baseline and each engine on its own in this process, then the service in
// a process of its own, driven over loopback HTTP by a load generator in a third.
// Not a test: the figures depend on the machine and on whatever else runs on it.

const ACCOUNTS = 40;
const KEYS_PER_ACCOUNT = 25;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'voice-pack': { type: 'string' },
    only: { type: 'string' },
    'metrics-overhead': { type: 'boolean', default: false },
    memory: { type: 'boolean', default: false },
    /** Worker counts of the memory scenario. */
    workers: { type: 'string', default: '1,2,4' },
    /** Another checkout whose `npm start` the memory scenario measures instead of this one's. */
    dir: { type: 'string' },
    /** Another built checkout to measure beside this one, figure by figure (against.ts). */
    against: { type: 'string' },
    /** A day on the phone with faults (bench/soak/), for `minutes` (default 60). */
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '60' },
    /** With --soak: two instances on a private PostgreSQL, Redis and S3-compatible store. */
    'scale-out': { type: 'boolean', default: false },
    /** With --soak: the faults in the order they are played (`kill-9,pool-worker`); default: all of the mode's. */
    faults: { type: 'string' },
    /** The warm-up after a kill -9 under load (restart.ts); with --against DIR, beside that checkout's. */
    restart: { type: 'boolean', default: false },
    /** With --restart: kills and restarts per side. */
    rounds: { type: 'string', default: '3' },
  },
});
const memoryWorkers = (values.workers ?? '').split(',').map(Number);
if (memoryWorkers.some((n) => !Number.isInteger(n) || n < 1))
  throw new Error('--workers takes counts like 1,2,4');
const settings = benchSettings(values.quick ?? false);
const config = loadConfig();
const turns = await loadTurns();
const all = interleave(turns);
const progress = (line: string) => process.stderr.write(`${line}\n`);

async function engineBaseline(): Promise<EngineResults> {
  progress(`engine baseline: ${config.poolSize} workers, no HTTP`);
  const pool = await EnginePool.start({ size: config.poolSize, warmUp: warmUpPlan(builtInVoices) });
  try {
    return await benchEngine(pool, turns, all, settings);
  } finally {
    await pool.close();
  }
}

/**
 * Runs the load generator against the service with `plan` added to its plan; returns what
 * `resultOf` finds in the message that ends it, and what each phase used.
 */
async function driveService<T>(
  plan: Pick<LoadPlan, 'only'>,
  resultOf: (message: LoadMessage) => T | undefined,
): Promise<{ results: T } & Pick<BenchReport, 'phases' | 'highWaterMb'>> {
  progress(`service: ${ACCOUNTS} accounts x ${KEYS_PER_ACCOUNT} keys, starting`);
  const data = await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT);
  const server = await startServer(data.dataDir, { env: NO_CLAUSE_CACHE });
  const peer = await startPeer(progress);
  const monitor = new ProcessMonitor(server.pid);
  try {
    monitor.phase = 'idle';
    await new Promise((resolve) => setTimeout(resolve, 500));
    const child = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
    });
    if (child.pid !== undefined) monitor.client = child.pid;
    const results = await new Promise<T>((resolve, reject) => {
      child.on('message', (message: LoadMessage) => {
        const result = resultOf(message);
        if (result !== undefined) resolve(result);
        else if (message.type === 'phase') {
          progress(`  ${message.name}`);
          monitor.phase = message.name;
        } else if (message.type === 'failed') reject(new Error(`load generator failed: ${message.message}`));
      });
      child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
      const full: LoadPlan = {
        ...plan,
        type: 'plan',
        base: server.base,
        keys: data.keys,
        settings,
        poolSize: config.poolSize,
        ...(peer ? { peerBase: peer.base } : {}),
      };
      child.send(full);
    });
    const phases = Object.fromEntries(monitor.usage());
    child.kill();
    return { results, phases, highWaterMb: monitor.highWaterMb() };
  } finally {
    monitor.stop();
    peer?.stop();
    await server.stop();
    await rm(data.dataDir, { recursive: true, force: true });
  }
}

/** The memory scenario (`memory.ts`): the service's process tree per worker count, against its targets. */
async function memory(): Promise<{ memory: MemoryPhases[]; checks: TargetCheck[] }> {
  const dir = values.dir === undefined ? undefined : pathToFileURL(`${values.dir.replace(/\/$/, '')}/`);
  const results = await benchMemory({ workers: memoryWorkers, progress, ...(dir ? { dir } : {}) });
  const checks = checkMemoryTargets(results);
  printMemory(results, checks);
  // A memory target missed fails the run, for a script or CI that runs it.
  if (checks.some((check) => !check.met)) process.exitCode = 1;
  return { memory: results, checks };
}

/** The whole bench: every scenario, its report and its files. */
async function fullRun(): Promise<void> {
  const engine = await engineBaseline();
  progress(`engines, each on its own: ${config.poolSize} workers, no HTTP`);
  const engines = await benchEngineCapacities(
    turns,
    settings,
    { ...config, voicePack: values['voice-pack'] },
    progress,
  );
  const {
    results: http,
    phases,
    highWaterMb,
  } = await driveService({}, (m) => (m.type === 'done' ? m.results : undefined));
  const greeting = await greetingBurst();
  const memoryFigures = await memory();
  const report: BenchReport = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    settings,
    poolSize: config.poolSize,
    engine,
    engines,
    http,
    phases,
    highWaterMb,
    memory: memoryFigures.memory,
    targets: [...checkTargets(engine, http), ...memoryFigures.checks],
    greeting,
  };
  printReport(report);
  printGreeting(greeting);
  printMarkdownCost(markdownCost());
  printWordLanguage(detectorScores(), decisionCost());
  const formatResults = await formats();
  printFormats(formatResults);
  if (!settings.quick) await saveFormats(formatResults);

  // A quick run's figures are for trying the bench out: they never replace the full run's.
  const dir = new URL('./results/', import.meta.url);
  const prefix = settings.quick ? 'quick-' : '';
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (!settings.quick) await writeFile(new URL(`bench-${report.date.replace(/[:.]/g, '-')}.json`, dir), json);
  await writeFile(new URL(`${prefix}latest.json`, dir), json);
  await writeFile(new URL(`${prefix}ttfb-vs-concurrency.svg`, dir), ttfbChart(report));
  console.log(
    `\nwritten bench/results/${prefix}latest.json and bench/results/${prefix}ttfb-vs-concurrency.svg`,
  );
}

/** The output formats' costs (bench/formats.ts), on a pool of the configured size. */
async function formats(): Promise<FormatResults> {
  progress(`formats: ${config.poolSize} workers, no HTTP`);
  const encoders = new EncodingThreads(1);
  const pool = await EnginePool.start({ size: config.poolSize, warmUp: warmUpPlan(builtInVoices), encoders });
  try {
    return await benchFormats(pool, all.slice(0, 12), progress);
  } finally {
    await pool.close();
    await encoders.close();
  }
}

/** Writes the formats' figures beside the other results. */
async function saveFormats(results: FormatResults): Promise<void> {
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(
    new URL('formats.json', dir),
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  console.log('\nwritten bench/results/formats.json');
}

/** The greeting burst with the clause cache and without it (greeting.ts). */
function greetingBurst() {
  return benchGreeting(turns, settings.greetingBurstSize, settings.greetingRounds, config.poolSize, progress);
}

/** Metrics off beside metrics on, two instances side by side (metrics-overhead.ts). */
async function metricsOverheadRun(): Promise<void> {
  const results = await benchMetricsOverhead(all, metricsOverheadSettings(settings.quick), progress);
  printMetricsOverhead(results);
  const dir = new URL('./results/', import.meta.url);
  const file = `${settings.quick ? 'quick-' : ''}metrics-overhead.json`;
  await mkdir(dir, { recursive: true });
  await writeFile(
    new URL(file, dir),
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  console.log(`\nwritten bench/results/${file}`);
}

/** The warm-up after a kill -9 under load (`--restart`), beside another checkout's with `--against DIR`. */
async function restartRun(): Promise<void> {
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a positive whole number');
  const report = await benchRestart({
    ...(values.against === undefined
      ? {}
      : { before: pathToFileURL(`${values.against.replace(/\/$/, '')}/`) }),
    rounds,
    loadSeconds: settings.quick ? 8 : 15,
    progress,
  });
  printRestart(report);
  const out = new URL('./results/', import.meta.url);
  await mkdir(out, { recursive: true });
  await writeFile(
    new URL('restart.json', out),
    `${JSON.stringify({ date: new Date().toISOString(), ...report }, null, 2)}\n`,
  );
  console.log('\nwritten bench/results/restart.json');
}

/** This checkout beside another (`--against DIR`): one table of both, their ratios and the targets. */
async function againstRun(dir: string): Promise<void> {
  const results = await benchAgainst({
    before: pathToFileURL(`${dir.replace(/\/$/, '')}/`),
    settings: againstSettings(settings.quick),
    progress,
  });
  printAgainst(
    `This checkout (new, ${results.commits.new}) against ${results.commits.before} (before), in the same run`,
    results.figures,
  );
  const out = new URL('./results/', import.meta.url);
  const file = `${settings.quick ? 'quick-' : ''}against.json`;
  await mkdir(out, { recursive: true });
  await writeFile(new URL(file, out), `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwritten bench/results/${file}`);
  // A target missed fails the run, for a script that runs it.
  if (results.figures.some((figure) => figure.result === 'FAIL')) process.exitCode = 1;
}

if (values.restart) {
  await restartRun();
} else if (values.against !== undefined) {
  await againstRun(values.against);
} else if (values.soak) {
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error('--minutes takes a positive number');
  const mode = values['scale-out'] ? 'scale-out' : 'embedded';
  const faults = values.faults === undefined ? undefined : soakFaults(mode, values.faults);
  await benchSoak({ minutes, mode, faults, progress });
} else if (values.memory) {
  await memory();
} else if (values['metrics-overhead']) {
  await metricsOverheadRun();
} else if (values.only === 'live') {
  const { results } = await driveService({ only: 'live' }, (m) =>
    m.type === 'live' ? m.results : undefined,
  );
  printLive(results);
} else if (values.only === 'markdown') {
  printMarkdownCost(markdownCost());
} else if (values.only === 'word-language') {
  printWordLanguage(detectorScores(), decisionCost());
} else if (values.only === 'greeting') {
  printGreeting(await greetingBurst());
} else if (values.only === 'formats') {
  const results = await formats();
  printFormats(results);
  await saveFormats(results);
} else if (values.only === 'compat') {
  const results = await benchCompat(values.quick ? 2 : 10, progress);
  printCompat(results);
  await saveCompat(results);
} else if (values.only === 'dictionaries') {
  const results = await benchDictionaries(values.quick ? 3 : 10, progress);
  printDictionaries(results);
  await saveDictionaries(results);
} else if (values.only !== undefined) {
  throw new Error(
    `--only takes live, markdown, word-language, greeting, formats, compat or dictionaries, not ${values.only}`,
  );
} else {
  await fullRun();
}
