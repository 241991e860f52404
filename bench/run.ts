import { fork } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { EnginePool } from '../src/speech/pool.ts';
import { builtInVoices } from '../src/speech/voices.ts';
import { warmUpPlan } from '../src/speech/warm-up.ts';
import { benchEngine, type EngineResults } from './engine.ts';
import { benchEngineCapacities } from './engines.ts';
import { benchMetricsOverhead, metricsOverheadSettings, printMetricsOverhead } from './metrics-overhead.ts';
import { ProcessMonitor } from './monitor.ts';
import { startPeer } from './peer-process.ts';
import { type BenchReport, checkTargets, printReport, ttfbChart } from './report.ts';
import type { HttpResults, LoadMessage, LoadPlan } from './results.ts';
import { prepareData, startServer } from './server.ts';
import { benchSettings } from './settings.ts';
import { interleave, loadTurns } from './turns.ts';

// `npm run bench` (`-- --quick` for a short run; `-- --voice-pack DIR` to bench a neural voice
// pack; `-- --metrics-overhead` for that scenario alone, see metrics-overhead.ts): the raw engine baseline and each engine on its own in this process, then the service in
// a process of its own, driven over loopback HTTP by a load generator in a third.
// Not a test: the figures depend on the machine and on whatever else runs on it.

const ACCOUNTS = 40;
const KEYS_PER_ACCOUNT = 25;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'voice-pack': { type: 'string' },
    'metrics-overhead': { type: 'boolean', default: false },
  },
});
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

/** Runs the load generator against the service; returns its results and what each phase used. */
async function driveService(): Promise<Pick<BenchReport, 'http' | 'phases' | 'highWaterMb'>> {
  progress(`service: ${ACCOUNTS} accounts x ${KEYS_PER_ACCOUNT} keys, starting`);
  const data = await prepareData(ACCOUNTS, KEYS_PER_ACCOUNT);
  const server = await startServer(data.dataDir);
  const peer = await startPeer(progress);
  const monitor = new ProcessMonitor(server.pid);
  try {
    monitor.phase = 'idle';
    await new Promise((resolve) => setTimeout(resolve, 500));
    const child = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
    });
    if (child.pid !== undefined) monitor.client = child.pid;
    const http = await new Promise<HttpResults>((resolve, reject) => {
      child.on('message', (message: LoadMessage) => {
        if (message.type === 'phase') {
          progress(`  ${message.name}`);
          monitor.phase = message.name;
        } else if (message.type === 'done') resolve(message.results);
        else reject(new Error(`load generator failed: ${message.message}`));
      });
      child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
      const plan: LoadPlan = {
        type: 'plan',
        base: server.base,
        keys: data.keys,
        settings,
        poolSize: config.poolSize,
        ...(peer ? { peerBase: peer.base } : {}),
      };
      child.send(plan);
    });
    const phases = Object.fromEntries(monitor.usage());
    child.kill();
    return { http, phases, highWaterMb: monitor.highWaterMb() };
  } finally {
    monitor.stop();
    peer?.stop();
    await server.stop();
    await rm(data.dataDir, { recursive: true, force: true });
  }
}

const dir = new URL('./results/', import.meta.url);
const prefix = settings.quick ? 'quick-' : '';
await mkdir(dir, { recursive: true });

if (values['metrics-overhead']) {
  const results = await benchMetricsOverhead(all, metricsOverheadSettings(settings.quick), progress);
  printMetricsOverhead(results);
  const file = `${prefix}metrics-overhead.json`;
  await writeFile(
    new URL(file, dir),
    `${JSON.stringify({ date: new Date().toISOString(), ...results }, null, 2)}\n`,
  );
  console.log(`\nwritten bench/results/${file}`);
  process.exit(0);
}

const engine = await engineBaseline();
progress(`engines, each on its own: ${config.poolSize} workers, no HTTP`);
const engines = await benchEngineCapacities(
  turns,
  settings,
  { ...config, voicePack: values['voice-pack'] },
  progress,
);
const { http, phases, highWaterMb } = await driveService();
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
  targets: checkTargets(engine, http, phases),
};
printReport(report);

// A quick run's figures are for trying the bench out: they never replace the full run's.
const json = `${JSON.stringify(report, null, 2)}\n`;
if (!settings.quick) await writeFile(new URL(`bench-${report.date.replace(/[:.]/g, '-')}.json`, dir), json);
await writeFile(new URL(`${prefix}latest.json`, dir), json);
await writeFile(new URL(`${prefix}ttfb-vs-concurrency.svg`, dir), ttfbChart(report));
console.log(
  `\nwritten bench/results/${prefix}latest.json and bench/results/${prefix}ttfb-vs-concurrency.svg`,
);
