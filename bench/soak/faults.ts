import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SoakService } from './service.ts';

// The fault schedule: each fault is injected into the running service, then a probe call of the
// kind the fault hits is made every 250 ms until one succeeds; the time from the fault to that
// success is its recovery time.

export type FaultName = 'pool-worker' | 'encoding-thread' | 'storage-unusable' | 'kill-9';

export interface FaultRecord {
  readonly fault: FaultName;
  /** When it was injected, in seconds from the start of the run. */
  readonly at: number;
  /** What the injection did (threads ended, the folder swapped). */
  readonly detail: string;
  /** From the injection to the first probe call that succeeded, in ms; null: none in 120 s. */
  readonly recoveryMs: number | null;
}

/** How long the file store stays unusable. */
const STORAGE_OUTAGE_MS = 20_000;

export interface FaultTarget {
  readonly service: SoakService;
  readonly dataDir: string;
  /** A probe of the kind the fault hits: resolves true when the call succeeded. */
  probe(kind: 'stream' | 'mp3' | 'file'): Promise<boolean>;
}

async function recovery(started: number, probe: () => Promise<boolean>): Promise<number | null> {
  while (performance.now() - started < 120_000) {
    if (await probe().catch(() => false)) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}

/** Injects `fault` and measures the recovery. */
export async function injectFault(
  fault: FaultName,
  target: FaultTarget,
  runStart: number,
): Promise<FaultRecord> {
  const started = performance.now();
  const at = (started - runStart) / 1000;
  switch (fault) {
    case 'pool-worker': {
      const ended = await target.service.killThreads('ijwi-engine');
      const recoveryMs = await recovery(started, () => target.probe('stream'));
      return { fault, at, detail: `${ended} engine worker thread ended`, recoveryMs };
    }
    case 'encoding-thread': {
      const ended = await target.service.killThreads('ijwi-encoding');
      const recoveryMs = await recovery(started, () => target.probe('mp3'));
      return { fault, at, detail: `${ended} encoding thread ended`, recoveryMs };
    }
    case 'storage-unusable': {
      // The generated files' folder becomes a plain file: every write fails, as on a full or
      // read-only disk (the bench runs as root, for whom permissions would not stop a write).
      const folder = join(target.dataDir, 'generated');
      await rename(folder, `${folder}.away`);
      await writeFile(folder, '');
      await new Promise((resolve) => setTimeout(resolve, STORAGE_OUTAGE_MS));
      await rm(folder);
      await rename(`${folder}.away`, folder);
      const restored = performance.now();
      const recoveryMs = await recovery(restored, () => target.probe('file'));
      return {
        fault,
        at,
        detail: `file store unusable for ${STORAGE_OUTAGE_MS / 1000} s (recovery counted from its return)`,
        recoveryMs,
      };
    }
    case 'kill-9': {
      await target.service.kill9();
      await target.service.restart();
      const recoveryMs = await recovery(started, () => target.probe('stream'));
      return { fault, at, detail: 'kill -9, then started again on the same data', recoveryMs };
    }
  }
}
