import { readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Agent } from 'node:http';
import { type CallTarget, fileCall, openConnections, streamCall } from './http-client.ts';
import { processTree, statusMb, treeCpuMs, treeRssMb } from './process-tree.ts';
import type { TargetCheck } from './report.ts';
import { latenciesOf, type StreamLatencies } from './results.ts';
import { prepareData, type RunningServer, startServer } from './server.ts';
import { targets } from './settings.ts';
import { fixed, printTable } from './stats.ts';
import { benchLanguages, interleave, loadTurns, longText, type Turn } from './turns.ts';

// The memory scenario (`npm run bench -- --memory` runs it alone): the service started as
// `npm start` starts it, once per worker count, on its embedded defaults; the resident memory of
// its whole process tree (the service and any neural runtime process) when it is ready, idle
// after its first calls, at its peak with a burst of calls in flight, and at its peak while it
// writes 10,000-character files. A peak is the kernel's high-water mark of each process of the
// tree, reset before the phase (`/proc/PID/clear_refs`), summed: no sample can miss it.

export interface MemoryPhases {
  readonly workers: number;
  /** When health first answers 200: workers warmed, no call yet. */
  readonly readyMb: number;
  /** After every turn once and a burst, settled: what an instance holds between calls. */
  readonly idleMb: number;
  /** With `targets.memoryCalls` streams in flight at once. */
  readonly burstPeakMb: number;
  readonly burst: StreamLatencies & {
    /** CPU time of the service's tree per second of audio it streamed: lower is cheaper. */
    readonly cpuMsPerAudioSecond: number | null;
  };
  /** While it writes one 10,000-character file per language, one after another (the target's workers only). */
  readonly filePeakMb: number | null;
  readonly fileErrors: number;
  /** The service's processes and their resident memory once idle. */
  readonly processes: number;
  /** Its main process's threads (the event loop, the engine workers, V8's and libuv's). */
  readonly threads: number;
}

const SETTLE_MS = 1_000;
const FILE_CHARACTERS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resets the high-water mark of every process of the tree; false where the kernel refuses. */
function resetPeaks(pid: number): boolean {
  try {
    for (const member of processTree(pid)) writeFileSync(`/proc/${member}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * The peak of the tree's memory over `work`: the members' high-water marks summed (at least the
 * true peak, as each member's may come at another moment); sampled every 20 ms where the
 * marks cannot be reset.
 */
async function peakOver(pid: number, work: () => Promise<void>): Promise<number> {
  const marks = resetPeaks(pid);
  let sampled = treeRssMb(pid) ?? 0;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, treeRssMb(pid) ?? 0);
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  if (!marks) return sampled;
  return processTree(pid).reduce((sum, member) => sum + (statusMb(member, 'VmHWM') ?? 0), 0);
}

function threadsOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
}

/**
 * Calls of one phase, on connections of their own: kept alive through the phase, closed at its
 * end, so that no phase sends on a connection the service may be closing after the last one's.
 */
export class Caller {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 2048 });
  readonly #base: string;
  readonly #nextKey: () => string;

  constructor(base: string, nextKey: () => string) {
    this.#base = base;
    this.#nextKey = nextKey;
  }

  target(): CallTarget {
    return { agent: this.#agent, base: this.#base, key: this.#nextKey() };
  }

  async burst(turns: readonly Turn[], size: number): Promise<Awaited<ReturnType<typeof streamCall>>[]> {
    await openConnections(this.#agent, this.#base, size);
    return Promise.all(
      Array.from({ length: size }, (_, i) => {
        const turn = turns[i % turns.length] as Turn;
        return streamCall(this.target(), turn.language, turn.text, turn.speakerId);
      }),
    );
  }

  close(): void {
    this.#agent.destroy();
  }
}

export interface MemoryOptions {
  readonly workers: readonly number[];
  /** Another checkout to start instead of this one (to compare two builds in one run). */
  readonly dir?: URL;
  /** False: no 10,000-character files (a run that needs only the burst's peak). Default true. */
  readonly files?: boolean;
  readonly progress: (line: string) => void;
}

/** One service start per worker count, measured phase by phase. */
export async function benchMemory(options: MemoryOptions): Promise<MemoryPhases[]> {
  const turns = await loadTurns();
  const all = interleave(turns);
  // Enough keys for a burst's calls plus the warm-up's, at 30 requests a minute each.
  const data = await prepareData(4, Math.ceil((targets.memoryCalls * 2) / 4), options.dir);
  const results: MemoryPhases[] = [];
  try {
    for (const workers of options.workers) {
      options.progress(`memory: ${workers} workers`);
      const server = await startServer(data.dataDir, {
        env: { POOL_SIZE: String(workers) },
        ...(options.dir ? { dir: options.dir } : {}),
      });
      try {
        results.push(await measure(server, workers, data.keys, all, turns, options.files ?? true));
      } finally {
        await server.stop();
      }
    }
  } finally {
    await rm(data.dataDir, { recursive: true, force: true });
  }
  return results;
}

async function measure(
  server: RunningServer,
  workers: number,
  keys: readonly string[],
  all: readonly Turn[],
  turns: Awaited<ReturnType<typeof loadTurns>>,
  files: boolean,
): Promise<MemoryPhases> {
  const { pid } = server;
  // Keys take turns, so no key comes near the per-key rate limit.
  let next = 0;
  const phase = async <T>(work: (caller: Caller) => Promise<T>): Promise<T> => {
    const caller = new Caller(server.base, () => keys[next++ % keys.length] ?? '');
    try {
      return await work(caller);
    } finally {
      caller.close();
    }
  };
  const readyMb = treeRssMb(pid) ?? Number.NaN;
  await phase(async (caller) => {
    for (const turn of all) await streamCall(caller.target(), turn.language, turn.text, turn.speakerId);
    await caller.burst(all, 64);
  });
  await sleep(SETTLE_MS);
  const idleMb = treeRssMb(pid) ?? Number.NaN;
  const processes = processTree(pid).length;
  const threads = threadsOf(pid);
  let calls: Awaited<ReturnType<typeof streamCall>>[] = [];
  const cpuBefore = treeCpuMs(pid);
  const burstPeakMb = await peakOver(pid, async () => {
    calls = await phase((caller) => caller.burst(all, targets.memoryCalls));
  });
  const cpuAfter = treeCpuMs(pid);
  const latencies = latenciesOf(calls);
  await sleep(SETTLE_MS);
  let filePeakMb: number | null = null;
  let fileErrors = 0;
  if (files && workers === targets.memoryWorkers) {
    filePeakMb = await peakOver(pid, () =>
      phase(async (caller) => {
        for (const language of benchLanguages) {
          const input = longText(turns, language, FILE_CHARACTERS);
          const file = await fileCall(caller.target(), language, input);
          if (file.error !== undefined) fileErrors++;
        }
      }),
    );
  }
  return {
    workers,
    readyMb,
    idleMb,
    burstPeakMb,
    burst: {
      ...latencies,
      cpuMsPerAudioSecond:
        cpuBefore === undefined || cpuAfter === undefined || latencies.audioSeconds <= 0
          ? null
          : (cpuAfter - cpuBefore) / latencies.audioSeconds,
    },
    filePeakMb,
    fileErrors,
    processes,
    threads,
  };
}

/** The memory targets against what a run measured; a target whose worker count was not run is left out. */
export function checkMemoryTargets(results: readonly MemoryPhases[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const base = results.find((r) => r.workers === targets.memoryWorkers);
  if (base) {
    checks.push({
      name: `peak, ${targets.memoryCalls} calls in flight, ${base.workers} workers (MB)`,
      target: `<= ${targets.memoryPeakMb}`,
      measured: base.burstPeakMb,
      met: base.burstPeakMb <= targets.memoryPeakMb && base.burst.errors === 0,
    });
    checks.push({
      name: `peak, ${FILE_CHARACTERS}-character files, ${base.workers} workers (MB)`,
      target: `< ${targets.memoryFilePeakMb}`,
      measured: base.filePeakMb,
      met: base.filePeakMb !== null && base.filePeakMb < targets.memoryFilePeakMb && base.fileErrors === 0,
    });
    for (const more of results.filter((r) => r.workers > base.workers)) {
      const perWorker = (more.burstPeakMb - base.burstPeakMb) / (more.workers - base.workers);
      checks.push({
        name: `peak per worker added, ${base.workers} -> ${more.workers} workers (MB)`,
        target: `<= ${targets.memoryPerAddedWorkerMb}`,
        measured: perWorker,
        met: perWorker <= targets.memoryPerAddedWorkerMb,
      });
    }
  }
  return checks;
}

export function printMemory(results: readonly MemoryPhases[], checks: readonly TargetCheck[]): void {
  console.log(
    `\nMemory of the service's process tree (resident MB), started as npm start, embedded defaults, ${targets.memoryCalls} calls in flight`,
  );
  printTable(
    [
      'workers',
      'ready',
      'idle',
      `peak, ${targets.memoryCalls} calls`,
      'file peak',
      'first audio p50',
      'p95',
      'errors',
      'CPU ms / audio s',
      'processes',
    ],
    results.map((r) => [
      String(r.workers),
      fixed(r.readyMb, 0),
      fixed(r.idleMb, 0),
      fixed(r.burstPeakMb, 0),
      fixed(r.filePeakMb, 0),
      fixed(r.burst.ttfb.p50, 0),
      fixed(r.burst.ttfb.p95, 0),
      String(r.burst.errors),
      fixed(r.burst.cpuMsPerAudioSecond, 1),
      String(r.processes),
    ]),
  );
  console.log('\nMemory targets');
  printTable(
    ['target', 'goal', 'measured', 'met'],
    checks.map((c) => [c.name, c.target, fixed(c.measured, 0), c.met ? 'yes' : 'NO']),
  );
}
