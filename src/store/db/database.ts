import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { AccountRepository, ApiKeyRepository, LedgerRepository } from '../../accounts/repositories.ts';
import { migrateToLatest } from './migrations.ts';
import { SqlAccountRepository, SqlApiKeyRepository, SqlLedgerRepository } from './repositories.ts';
import type { Schema } from './schema.ts';
import { ImmediateSqliteDialect } from './sqlite-dialect.ts';

/** An open database: the repositories the domain uses, a health check and a way to close it. */
export interface Database {
  readonly accounts: AccountRepository;
  readonly keys: ApiKeyRepository;
  readonly ledger: LedgerRepository;
  /** The query builder itself, for tests and operator tooling; services go through the repositories. */
  readonly kysely: Kysely<Schema>;
  /** For the health check: true when a query round-trips, else a short reason with no path in it. */
  ping(): Promise<true | string>;
  /** Closes the connection; safe to call twice. */
  close(): Promise<void>;
}

/** Options for `openDatabase`. */
export interface OpenDatabaseOptions {
  /** How long a writer waits for another process's write lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

function reasonOf(error: unknown): string {
  // better-sqlite3 errors carry an SQLite code such as SQLITE_BUSY; messages may carry paths.
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? `query failed (${code})` : 'query failed';
}

/**
 * Opens (creating when missing) the embedded SQLite database at `path`, with its parent folder,
 * and applies every pending migration before resolving. Settings: WAL journal (readers never
 * block the writer), a busy timeout (a second process waits for the write lock instead of failing
 * at once), foreign keys enforced, and the default synchronous=FULL, because the ledger is money
 * and a committed charge must survive a power cut. `':memory:'` gives a private in-memory database.
 */
export async function openDatabase(path: string, options: OpenDatabaseOptions = {}): Promise<Database> {
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
  const kysely = new Kysely<Schema>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  try {
    await migrateToLatest(kysely as Kysely<unknown>);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }

  let closed = false;
  return {
    accounts: new SqlAccountRepository(kysely),
    keys: new SqlApiKeyRepository(kysely),
    ledger: new SqlLedgerRepository(kysely, { rowLocks: false }),
    kysely,
    async ping() {
      if (closed) return 'closed';
      try {
        await kysely.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
        return true;
      } catch (error) {
        return reasonOf(error);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
  };
}
