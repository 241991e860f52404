import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// SQLite copies its WAL back into the database file (a checkpoint) on the commit that takes the
// WAL past 1,000 pages: on the connection that commits, which for the embedded database is the
// request thread's. That commit then writes up to 4 MB into the database file and waits for its
// flush, and every call in the process waits with it. So the request thread's connection never
// checkpoints (wal_autocheckpoint=0) and a thread of its own, on a connection of its own, does:
// PASSIVE, which never holds a writer up, once the WAL passes a size. The next writer after a
// complete checkpoint starts the WAL again from its beginning, so the file stays that size.

/** When the checkpointing thread copies the WAL back. */
export interface CheckpointPolicy {
  /** How often the WAL's size is looked at; default 1000 ms. */
  readonly intervalMs?: number;
  /** A WAL smaller than this is left as it is; default 1 MiB. */
  readonly minBytes?: number;
}

/** What a checkpoint did, as SQLite's `wal_checkpoint` pragma reports it. */
export interface CheckpointResult {
  /** True when a writer or reader kept it from finishing (it is tried again at the next look). */
  readonly busy: boolean;
  /** Pages in the WAL, and how many of them are now in the database file. */
  readonly walPages: number;
  readonly checkpointedPages: number;
}

export interface Checkpointer {
  /** Checkpoints run so far. */
  readonly checkpoints: number;
  /** Runs one checkpoint now, whatever the WAL's size; for tests and for an orderly shutdown. */
  checkpoint(): Promise<CheckpointResult>;
  close(): Promise<void>;
}

// Plain JavaScript evaluated in the thread: it needs no TypeScript loader and starts in a few ms.
// Imports, not require: an evaluated thread runs as a module when the process was started as one.
const THREAD_SOURCE = `
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { default: Database } = await import(workerData.driver);
  const db = new Database(workerData.path, { timeout: workerData.busyTimeoutMs });
  db.pragma('synchronous = FULL');
  db.pragma('wal_autocheckpoint = 0');
  parentPort.on('message', (message) => {
    if (message === 'close') {
      db.close();
      parentPort.close();
      return;
    }
    try {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ busy: row.busy !== 0, walPages: row.log, checkpointedPages: row.checkpointed });
    } catch (error) {
      parentPort.postMessage({ error: String(error && error.code ? error.code : error) });
    }
  });
})();
`;

const driverUrl = pathToFileURL(createRequire(import.meta.url).resolve('better-sqlite3')).href;

/**
 * Starts the thread that checkpoints the SQLite database at `path` (already in WAL mode) on its
 * own connection. The timer is unref'd: it never keeps a process alive. A checkpoint that fails
 * (the disk full, say) is tried again at the next look; the commits themselves are flushed to the
 * WAL and need no checkpoint to be durable. Should the thread itself die, `onThreadLost` is told
 * once, so that the caller's connection checkpoints again (the WAL would otherwise grow forever).
 */
export function startCheckpointer(
  path: string,
  busyTimeoutMs: number,
  policy: CheckpointPolicy = {},
  onThreadLost: (error: unknown) => void = () => {},
): Checkpointer {
  const intervalMs = policy.intervalMs ?? 1000;
  const minBytes = policy.minBytes ?? 1024 * 1024;
  const thread = new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { driver: driverUrl, path, busyTimeoutMs },
    name: 'ijwi-sqlite-checkpoint',
  });
  thread.unref();
  let checkpoints = 0;
  let pending: { resolve(result: CheckpointResult): void; reject(error: unknown): void } | undefined;
  let running: Promise<CheckpointResult> | undefined;
  let lost: unknown;
  let closed = false;

  thread.on('message', (answer: CheckpointResult | { error: string }) => {
    const caller = pending;
    pending = undefined;
    running = undefined;
    thread.unref();
    if ('error' in answer) caller?.reject(new Error(`checkpoint failed: ${answer.error}`));
    else {
      checkpoints++;
      caller?.resolve(answer);
    }
  });
  thread.once('error', (error) => {
    lost = error;
    pending?.reject(error);
    if (!closed) onThreadLost(error);
  });
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));

  const checkpoint = (): Promise<CheckpointResult> => {
    if (lost !== undefined) return Promise.reject(lost);
    running ??= new Promise<CheckpointResult>((resolve, reject) => {
      pending = { resolve, reject };
      // Held while a checkpoint runs, so a caller that awaits it keeps the process alive.
      thread.ref();
      thread.postMessage('checkpoint');
    });
    return running;
  };

  const look = async () => {
    if (closed || running || lost !== undefined) return;
    const size = await stat(`${path}-wal`).then(
      (s) => s.size,
      () => 0,
    );
    if (size >= minBytes && !closed) await checkpoint().catch(() => undefined);
  };
  const timer = setInterval(() => void look(), intervalMs);
  timer.unref();

  return {
    get checkpoints() {
      return checkpoints;
    },
    checkpoint,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      if (lost === undefined) {
        thread.ref();
        thread.postMessage('close');
      }
      await exited;
    },
  };
}
