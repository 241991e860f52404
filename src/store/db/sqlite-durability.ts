import { type FileHandle, open } from 'node:fs/promises';
import { CompiledQuery } from 'kysely';
import { StoreUnavailableError } from '../store-unavailable.ts';
import { flushedByCommit, type WriteDurability } from './repositories.ts';
import type { SqliteLane } from './sqlite-dialect.ts';

// The embedded database runs with synchronous=FULL (sqlite-database.ts): every commit is flushed
// to disk before it returns. better-sqlite3 flushes on the request thread, which then waits
// (1-2 ms a flush here) while every other call waits behind it, and each call makes a charge
// and two bookkeeping writes. So the two writes every call makes are handled apart, on the one
// connection held throughout (no other query runs unflushed meanwhile):
// - a bookkeeping write is committed without a flush (synchronous=NORMAL for it alone): the WAL
//   keeps commits in order and a flush takes every frame written before it, so the next flushed
//   commit (or checkpoint) takes it to disk; a power cut can lose the last of them, never money;
// - a ledger transaction is committed without a flush, then the WAL file is flushed by the
//   thread pool (fdatasync), one flush at a time for all (`oneFlushAtATime`), and the
//   transaction resolves once it is on disk, as with synchronous=FULL, without holding the
//   request thread; a charge (`beforeFlushed`) resolves at its commit, its flush under way while
//   its audio is made: awaited, the flush (1-2 ms here) came after the engine's first audio of a
//   Kinyarwanda or French call (0.6-1 ms) and made its first byte p95 25 % later.
// Every other write (accounts, keys, the website's) is flushed by SQLite as it commits.

/** Flushes a file's data to disk; resolves once everything written before the call is there. */
export interface FileFlusher {
  flush(): Promise<void>;
  /** True once a flush has failed: every later one fails too. */
  readonly failed: boolean;
  close(): Promise<void>;
}

/**
 * `flushNow` (which takes every write made before it starts) run one at a time for every caller,
 * as a group commit: the calls that come while a flush runs may have written after it started,
 * so they all wait for the one after it. A burst of charges then costs a few flushes, not one
 * each (64 calls' flushes one after another made their first byte wait up to 100 ms more).
 */
export function oneFlushAtATime(flushNow: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const flushing = flushNow();
    running = flushing;
    const clear = () => {
      if (running === flushing) running = undefined;
    };
    flushing.then(clear, clear);
    return flushing;
  };
  return () => {
    if (running === undefined) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

/**
 * Flushes the file at `path` (`datasync`: fdatasync by the thread pool), one flush at a time
 * (`oneFlushAtATime`). The descriptor is opened at the first flush and kept: SQLite never
 * replaces the WAL file while a connection to the database is open, and this process holds one
 * as long as it flushes. Once a flush has failed, every later one fails with its error: the kernel
 * may have dropped the pages it could not write, and a later flush would then succeed without
 * them, the WAL ending at the lost frame when SQLite recovers it and every later commit lost with
 * it. A top-up or a refund then fails, never confirmed, until the service is restarted. Closing
 * waits for the flushes asked for before it (a charge's is not awaited), then closes the file.
 */
export function walFlusher(
  path: string,
  datasync: (file: FileHandle) => Promise<void> = (file) => file.datasync(),
): FileFlusher {
  let file: Promise<FileHandle> | undefined;
  let failed: { readonly error: unknown } | undefined;
  let closed = false;
  /** The flush the last caller was given: every one asked for before it ends with it. */
  let latest: Promise<void> = Promise.resolve();
  const queued = oneFlushAtATime(async () => {
    if (failed) throw failed.error;
    file ??= open(path, 'r');
    const opening = file;
    let opened: FileHandle;
    try {
      opened = await opening;
    } catch (error) {
      // Not opened: nothing was flushed or lost, and the next flush tries again.
      if (file === opening) file = undefined;
      throw error;
    }
    try {
      await datasync(opened);
    } catch (error) {
      failed = { error };
      throw error;
    }
  });
  return {
    flush() {
      // Closed with its database: nothing is written after, and no file is opened again.
      if (closed) return Promise.resolve();
      latest = queued();
      return latest;
    },
    get failed() {
      return failed !== undefined;
    },
    async close() {
      // A charge's flush is not awaited: it may still run, or wait behind another, at close.
      closed = true;
      await latest.catch(() => undefined);
      const opened = file;
      file = undefined;
      await opened?.then(
        (f) => f.close(),
        () => undefined,
      );
    },
  };
}

// Compiled once: each call runs them twice or more.
const UNFLUSHED = CompiledQuery.raw('pragma synchronous = normal');
const FLUSHED = CompiledQuery.raw('pragma synchronous = full');

/**
 * The durability of the SQLite database at `path`, its WAL flushed by `wal`; an in-memory
 * database (`':memory:'`) has nothing to flush. With the database's `lane` (sqlite-dialect.ts), a
 * bookkeeping write or a ledger transaction begun while nobody holds the connection runs on it
 * without kysely's executor (`SqliteLane.exclusive`, `SqliteLane.transaction`): the same
 * statements in the same order, the connection held from the first pragma to the last.
 */
export function sqliteDurability(
  path: string,
  wal: FileFlusher = walFlusher(`${path}-wal`),
  lane?: SqliteLane,
): WriteDurability {
  if (path === ':memory:') return flushedByCommit;
  const unflushed: WriteDurability['bookkeeping'] = (kysely, write) =>
    kysely.connection().execute(async (db) => {
      await db.executeQuery(UNFLUSHED);
      try {
        return await write(db);
      } finally {
        await db.executeQuery(FLUSHED);
      }
    });
  const bookkeeping: WriteDurability['bookkeeping'] = (kysely, write) => {
    if (lane === undefined || !lane.free) return unflushed(kysely, write);
    // The write's statements run before it returns (prepared queries take the lane at once); one
    // that awaits first runs the rest in turn after FLUSHED, flushed by SQLite as it commits.
    try {
      return lane.exclusive(() => {
        lane.run(UNFLUSHED.sql);
        try {
          return write(kysely);
        } finally {
          lane.run(FLUSHED.sql);
        }
      });
    } catch (error) {
      return Promise.reject(lane.translate(error));
    }
  };
  return {
    bookkeeping,
    async ledger(kysely, work, options) {
      // After a failed flush nothing in the ledger can be confirmed durable: no charge is taken
      // (the caller answers 503 `not_ready`, and a load balancer's health check drains us).
      if (wal.failed) throw new StoreUnavailableError('database', 'a flush to disk failed');
      const value =
        lane?.free === true
          ? await lane.transaction(work, UNFLUSHED.sql, FLUSHED.sql)
          : await unflushed(kysely, (db) => db.transaction().execute(work));
      const flushed = wal.flush();
      // Not awaited, its failure has no caller to go to; it fails every later flush (see
      // `walFlusher`), so no top-up or refund is confirmed after it.
      if (options.beforeFlushed) flushed.catch(() => undefined);
      else await flushed;
      return value;
    },
    check: () => (wal.failed ? 'a flush to disk failed' : true),
    close: () => wal.close(),
  };
}
