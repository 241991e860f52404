import { mkdirSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { errorCode } from '../error-code.ts';
import type { Database } from './database.ts';
import { migrateToLatest } from './migrations.ts';
import { runDirectly } from './prepared-query.ts';
import type { Schema } from './schema.ts';
import { sqlDatabase } from './sql-database.ts';
import { type CheckpointPolicy, startCheckpointer } from './sqlite-checkpointer.ts';
import { ImmediateSqliteDialect } from './sqlite-dialect.ts';
import { sqliteDurability, walFlusher } from './sqlite-durability.ts';
import { reportingUnavailable } from './unavailable-dialect.ts';

/** Options for `openSqliteDatabase`. */
export interface SqliteDatabaseOptions {
  /** How long a writer waits for another process's write lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** How the WAL file is flushed to disk (`walFlusher`); the file's own datasync by default. */
  readonly datasync?: (file: FileHandle) => Promise<void>;
  /** When the WAL is copied back into the database file, by a thread of its own (sqlite-checkpointer.ts). */
  readonly checkpoint?: CheckpointPolicy;
}

/**
 * Switches a connection to WAL. The switch needs the file to itself, and SQLite may answer BUSY
 * at once, without waiting out the busy timeout, when several processes open a new file at the
 * same moment: so it is retried, a few milliseconds apart, for as long as that timeout.
 */
async function enableWal(
  sqlite: BetterSqlite3.Database,
  timeoutMs: number,
  busy: (error: unknown) => boolean,
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!busy(error) || Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

/**
 * Opens (creating when missing) the embedded SQLite database at `path`, with its parent folder,
 * and applies every pending migration before resolving. Settings: WAL journal (readers never
 * block the writer), a busy timeout (a second process waits for the write lock instead of failing
 * at once), foreign keys enforced, and synchronous=FULL (every commit flushed to disk), because
 * the ledger is money; the writes every call makes are flushed off the request thread
 * (sqlite-durability.ts), and the WAL copied back by a thread of its own (sqlite-checkpointer.ts).
 * `':memory:'` gives a private in-memory database.
 */
export async function openSqliteDatabase(
  path: string,
  options: SqliteDatabaseOptions = {},
): Promise<Database> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
  const sqlite = new BetterSqlite3(path, { timeout: busyTimeoutMs });
  // A write lock held by another process past the busy timeout is "try again", not a bug.
  const busy = (error: unknown) => errorCode(error)?.startsWith('SQLITE_BUSY') === true;
  try {
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    await enableWal(sqlite, busyTimeoutMs, busy);
    // Said, not left to the default: better-sqlite3's SQLite is built to open a file already in
    // WAL with synchronous=NORMAL, where a commit is not flushed and a power cut can undo it.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // Checkpoints are the checkpointing thread's, never a request's commit, and the WAL is cut back
    // when it starts again, so that its size tells what it holds (sqlite-checkpointer.ts).
    if (path !== ':memory:') {
      sqlite.pragma('wal_autocheckpoint = 0');
      sqlite.pragma('journal_size_limit = 0');
    }
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const dialect = new ImmediateSqliteDialect({ database: sqlite, isUnavailable: busy });
  const kysely = new Kysely<Schema>({ dialect: reportingUnavailable(dialect, busy) });
  try {
    await migrateToLatest(kysely as Kysely<unknown>);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  // No row locks: SQLite's immediate transactions already serialise every writer (sqlite-dialect.ts).
  // A call's prepared queries, bookkeeping writes and ledger transactions skip kysely's executor
  // when nobody holds the connection (sqlite-dialect.ts).
  runDirectly(kysely, dialect.lane);
  const durability = sqliteDurability(path, walFlusher(`${path}-wal`, options.datasync), dialect.lane);
  if (path === ':memory:') return sqlDatabase(kysely, { rowLocks: false, durability });
  const checkpointer = startCheckpointer(path, busyTimeoutMs, options.checkpoint, () =>
    sqlite.pragma('wal_autocheckpoint = 1000'),
  );
  return sqlDatabase(kysely, {
    rowLocks: false,
    // Closed after the request connection: the file's last connection copies the WAL back as it
    // closes, a checkpointing thread still running or else the request connection itself.
    durability: {
      ...durability,
      async close() {
        await durability.close();
        await checkpointer.close();
      },
    },
  });
}
