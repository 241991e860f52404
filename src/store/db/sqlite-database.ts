import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import { errorCode } from '../error-code.ts';
import type { Database } from './database.ts';
import { migrateToLatest } from './migrations.ts';
import type { Schema } from './schema.ts';
import { sqlDatabase } from './sql-database.ts';
import { ImmediateSqliteDialect } from './sqlite-dialect.ts';
import { reportingUnavailable } from './unavailable-dialect.ts';

/** Options for `openSqliteDatabase`. */
export interface SqliteDatabaseOptions {
  /** How long a writer waits for another process's write lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

/**
 * Opens (creating when missing) the embedded SQLite database at `path`, with its parent folder,
 * and applies every pending migration before resolving. Settings: WAL journal (readers never
 * block the writer), a busy timeout (a second process waits for the write lock instead of failing
 * at once), foreign keys enforced, and the default synchronous=FULL, because the ledger is money
 * and a committed charge must survive a power cut. `':memory:'` gives a private in-memory database.
 */
export async function openSqliteDatabase(
  path: string,
  options: SqliteDatabaseOptions = {},
): Promise<Database> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  // A write lock held by another process past the busy timeout is "try again", not a bug.
  const busy = (error: unknown) => errorCode(error)?.startsWith('SQLITE_BUSY') === true;
  const kysely = new Kysely<Schema>({
    dialect: reportingUnavailable(new ImmediateSqliteDialect({ database: sqlite }), busy),
  });
  try {
    await migrateToLatest(kysely as Kysely<unknown>);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  // No row locks: SQLite's immediate transactions already serialise every writer (sqlite-dialect.ts).
  return sqlDatabase(kysely, { rowLocks: false });
}
