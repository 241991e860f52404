import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { loadConfig } from '../src/config.ts';
import { EnginePool } from '../src/speech/pool.ts';
import { voices } from '../src/speech/voices.ts';
import { warmUpPlan } from '../src/speech/warm-up.ts';
import { benchEngine, loadTurns } from './engine.ts';
import { printTable } from './stats.ts';

// `npm run bench`: measures, prints a table and writes JSON under bench/results/. Not a test:
// numbers depend on the machine, so they are compared as ratios within one run.

const config = loadConfig();
const turns = await loadTurns();
const started = performance.now();
const pool = await EnginePool.start({ size: config.poolSize, warmUp: warmUpPlan(voices) });
const startupMs = performance.now() - started;
try {
  const engine = await benchEngine(pool, turns);
  console.log(
    `\nEngine in the worker pool (${pool.size} workers, started and warmed in ${startupMs.toFixed(0)} ms)\n`,
  );
  printTable(
    [
      'language',
      'turns',
      'audio s',
      'RTF 1 stream',
      'RTF pool',
      'x real time',
      '1st chunk p50 ms',
      'p95 ms',
      'p99 ms',
    ],
    engine.map((r) => [
      r.language,
      String(r.turns),
      r.audioSeconds.toFixed(1),
      r.realTimeFactor.toFixed(4),
      r.poolRealTimeFactor.toFixed(4),
      (1 / r.poolRealTimeFactor).toFixed(0),
      r.firstChunkMs.p50.toFixed(1),
      r.firstChunkMs.p95.toFixed(1),
      r.firstChunkMs.p99.toFixed(1),
    ]),
  );
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    poolSize: pool.size,
    startupMs,
    engine,
  };
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(new URL(`engine-${report.date.replace(/[:.]/g, '-')}.json`, dir), json);
  await writeFile(new URL('latest.json', dir), json);
  console.log('\nwritten bench/results/latest.json');
} finally {
  await pool.close();
}
