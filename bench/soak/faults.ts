import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SoakDeployment } from './deployment.ts';

// The fault schedule: each fault is injected into the running deployment, then a probe call of
// the kind the fault hits is made every 250 ms until one succeeds; the time from the fault (for an
// outage, from the store's return) to that success is its recovery time. Thread faults hit the
// first instance; kill -9 hits the last (with two instances, the other one serves meanwhile).

export type FaultName =
  | 'pool-worker'
  | 'encoding-thread'
  | 'neural-runtime'
  | 'storage-unusable'
  | 'postgres-restart'
  | 'redis-restart'
  | 'kill-9';

export interface FaultRecord {
  readonly fault: FaultName;
  /** When it was injected, in seconds from the start of the run. */
  readonly at: number;
  /** Whether it found what it ends (a thread, a process): false means the run did not test it. */
  readonly hit: boolean;
  /** What the injection did (threads ended, the folder swapped). */
  readonly detail: string;
  /** From the injection (or the store's return) to the first probe call that succeeded, in ms; null: none in 120 s. */
  readonly recoveryMs: number | null;
}

export type ProbeKind = 'stream' | 'mp3' | 'file' | 'neural';

export interface FaultTarget {
  readonly deployment: SoakDeployment;
  /** How long the file store stays unusable, and a restarted store stays down. */
  readonly outageMs: number;
  /** A probe of the kind the fault hits: resolves true when the call succeeded. */
  probe(kind: ProbeKind): Promise<boolean>;
}

async function recovery(started: number, probe: () => Promise<boolean>): Promise<number | null> {
  while (performance.now() - started < 120_000) {
    if (await probe().catch(() => false)) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Injects `fault` and measures the recovery. */
export async function injectFault(
  fault: FaultName,
  target: FaultTarget,
  runStart: number,
): Promise<FaultRecord> {
  const { deployment, outageMs } = target;
  const first = deployment.services[0];
  const last = deployment.services.at(-1);
  if (!first || !last) throw new Error('no instance is running');
  const started = performance.now();
  const at = (started - runStart) / 1000;
  const downFor = `down for ${outageMs / 1000} s (recovery counted from its return)`;
  switch (fault) {
    case 'pool-worker': {
      const ended = await first.killThreads('ijwi-engine');
      const recoveryMs = await recovery(started, () => target.probe('stream'));
      return { fault, at, hit: ended > 0, detail: `${ended} engine worker thread ended`, recoveryMs };
    }
    case 'encoding-thread': {
      const ended = await first.killThreads('ijwi-encoding');
      const recoveryMs = await recovery(started, () => target.probe('mp3'));
      return { fault, at, hit: ended > 0, detail: `${ended} encoding thread ended`, recoveryMs };
    }
    case 'neural-runtime': {
      // The runtime starts with the first neural clause of a worker: make sure one runs.
      await target.probe('neural');
      const killed = first.killNeuralRuntimes();
      const recoveryMs = await recovery(performance.now(), () => target.probe('neural'));
      return {
        fault,
        at,
        hit: killed > 0,
        detail: `${killed} neural runtime process killed (-9)`,
        recoveryMs,
      };
    }
    case 'storage-unusable': {
      // The generated files' folder becomes a plain file: every write fails, as on a full or
      // read-only disk (the bench runs as root, for whom permissions would not stop a write).
      const folder = join(deployment.dataDir, 'generated');
      await rename(folder, `${folder}.away`);
      await writeFile(folder, '');
      await pause(outageMs);
      await rm(folder);
      await rename(`${folder}.away`, folder);
      const recoveryMs = await recovery(performance.now(), () => target.probe('file'));
      return { fault, at, hit: true, detail: `file store unusable, ${downFor}`, recoveryMs };
    }
    case 'postgres-restart':
    case 'redis-restart': {
      const store = fault === 'postgres-restart' ? deployment.postgres : deployment.redis;
      if (!store) return { fault, at, hit: false, detail: 'no such store in this mode', recoveryMs: null };
      await store.stop();
      await pause(outageMs);
      await store.start();
      const recoveryMs = await recovery(performance.now(), () => target.probe('stream'));
      return { fault, at, hit: true, detail: `stopped and started again, ${downFor}`, recoveryMs };
    }
    case 'kill-9': {
      await last.kill9();
      await last.restart();
      const recoveryMs = await recovery(started, () => target.probe('stream'));
      return { fault, at, hit: true, detail: 'kill -9, then started again on the same data', recoveryMs };
    }
  }
}
