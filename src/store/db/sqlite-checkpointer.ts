import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

// SQLite copies its WAL back into the database file (a checkpoint) on the commit that takes the
// WAL past 1,000 pages: on the connection that commits, which for the embedded database is the
// request thread's. That commit then writes up to 4 MB into the database file and waits for its
// flush, and every call in the process waits with it. So the request thread's connection never
// checkpoints (wal_autocheckpoint=0) and a thread of its own, on a connection of its own, does:
// PASSIVE, which never holds a writer up. The thread lives only while there is a WAL to copy back
// (a thread holds about 10 MB): it starts once the WAL has reached a size and the writes have
// paused (its size the same at two looks in a row), or at once past a larger size however busy
// the writes are, and it ends once a checkpoint has copied everything back. A burst of calls thus
// never carries the thread unless its writes pass the larger size. The request connection runs
// with journal_size_limit=0: the next writer after a complete checkpoint starts the WAL again from
// its beginning and cuts the file to what it writes, so the WAL's size tells what it holds.

/** When the checkpointing thread copies the WAL back. */
export interface CheckpointPolicy {
  /** How often the WAL's size is looked at; default 1000 ms. */
  readonly intervalMs?: number;
  /** A WAL smaller than this is left as it is; default 1 MiB. */
  readonly minBytes?: number;
  /** A WAL this large is copied back at the next look, writes paused or not; default 32 MiB. */
  readonly maxBytes?: number;
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
  /** Whether a checkpointing thread is running now. */
  readonly threadRunning: boolean;
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

/** One checkpointing thread, on a connection of its own, from its start to its end. */
class CheckpointThread {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #pending: { resolve(result: CheckpointResult): void; reject(error: unknown): void } | undefined;
  #ending = false;

  /** `onLost` is told once should the thread die or exit before it is ended. */
  constructor(path: string, busyTimeoutMs: number, onLost: (error: unknown) => void) {
    this.#worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { driver: driverUrl, path, busyTimeoutMs },
      name: 'ijwi-sqlite-checkpoint',
    });
    this.#worker.unref();
    let lost = false;
    const lose = (error: unknown) => {
      const caller = this.#pending;
      this.#pending = undefined;
      caller?.reject(error);
      if (lost || this.#ending) return;
      lost = true;
      onLost(error);
    };
    this.#worker.on('message', (answer: CheckpointResult | { error: string }) => {
      const caller = this.#pending;
      this.#pending = undefined;
      this.#worker.unref();
      if ('error' in answer) caller?.reject(new Error(`checkpoint failed: ${answer.error}`));
      else caller?.resolve(answer);
    });
    this.#worker.once('error', lose);
    this.#exited = new Promise<void>((resolve) =>
      this.#worker.once('exit', (code) => {
        lose(new Error(`the checkpointing thread exited (${code})`));
        resolve();
      }),
    );
  }

  checkpoint(): Promise<CheckpointResult> {
    return new Promise<CheckpointResult>((resolve, reject) => {
      this.#pending = { resolve, reject };
      // Held while a checkpoint runs, so a caller that awaits it keeps the process alive.
      this.#worker.ref();
      this.#worker.postMessage('checkpoint');
    });
  }

  /** Closes the thread's connection and waits for the thread to end. */
  async end(): Promise<void> {
    this.#ending = true;
    this.#worker.ref();
    this.#worker.postMessage('close');
    await this.#exited;
  }
}

/**
 * Looks every `intervalMs` at the WAL of the SQLite database at `path` (already in WAL mode, its
 * request connection with journal_size_limit=0) and copies it back with a thread started for it
 * (`CheckpointThread`), as the header above says. The timer is unref'd: it never keeps a process
 * alive. A checkpoint that fails (the disk full, say) is tried again at the next look; the commits
 * themselves are flushed to the WAL and need no checkpoint to be durable. Should a thread die, or
 * fail to start, `onThreadLost` is told once and no thread is started again, so that the caller's
 * connection checkpoints again (the WAL would otherwise grow forever).
 */
export function startCheckpointer(
  path: string,
  busyTimeoutMs: number,
  policy: CheckpointPolicy = {},
  onThreadLost: (error: unknown) => void = () => {},
): Checkpointer {
  const intervalMs = policy.intervalMs ?? 1000;
  const minBytes = policy.minBytes ?? 1024 * 1024;
  const maxBytes = policy.maxBytes ?? 32 * 1024 * 1024;
  const walSize = () =>
    stat(`${path}-wal`).then(
      (s) => s.size,
      () => 0,
    );
  let thread: CheckpointThread | undefined;
  let checkpoints = 0;
  let running: Promise<CheckpointResult> | undefined;
  let lost: unknown;
  let closed = false;
  /** The WAL's size at the last look, and when a checkpoint last copied all of it back. */
  let lastSize = -1;
  let copiedSize = -1;

  const lose = (error: unknown) => {
    if (lost !== undefined) return;
    lost = error;
    thread = undefined;
    if (!closed) onThreadLost(error);
  };

  const run = async (): Promise<CheckpointResult> => {
    const size = await walSize();
    if (thread === undefined) {
      try {
        thread = new CheckpointThread(path, busyTimeoutMs, lose);
      } catch (error) {
        lose(error);
        throw error;
      }
    }
    const result = await thread.checkpoint();
    checkpoints++;
    if (!result.busy && result.checkpointedPages === result.walPages) {
      // Everything the WAL held at that size is in the file: the thread's work is done.
      copiedSize = size;
      const done = thread;
      thread = undefined;
      await done.end();
    }
    return result;
  };

  const checkpoint = (): Promise<CheckpointResult> => {
    if (lost !== undefined) return Promise.reject(lost);
    if (closed) return Promise.reject(new Error('the checkpointer is closed'));
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };

  const look = async () => {
    if (closed || running || lost !== undefined) return;
    const size = await walSize();
    const previous = lastSize;
    lastSize = size;
    if (closed || size < minBytes || size === copiedSize) return;
    if (size === previous || size >= maxBytes) await checkpoint().catch(() => undefined);
  };
  const timer = setInterval(() => void look(), intervalMs);
  timer.unref();

  return {
    get checkpoints() {
      return checkpoints;
    },
    get threadRunning() {
      return thread !== undefined;
    },
    checkpoint,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
      const last = thread;
      thread = undefined;
      await last?.end();
    },
  };
}
