import type { Kysely } from 'kysely';
import type { LexiconRepository } from '../../accounts/lexicon-repository.ts';
import type { AccountRepository, ApiKeyRepository, LedgerRepository } from '../../accounts/repositories.ts';
import type { TopUpRequestRepository } from '../../accounts/topup-requests.ts';
import type { Schema } from './schema.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

/** An open database: the repositories the domain uses, a health check and a way to close it. */
export interface Database {
  readonly accounts: AccountRepository;
  readonly keys: ApiKeyRepository;
  readonly ledger: LedgerRepository;
  readonly lexicons: LexiconRepository;
  readonly topUpRequests: TopUpRequestRepository;
  /** The query builder itself, for tests and operator tooling; services go through the repositories. */
  readonly kysely: Kysely<Schema>;
  /** For the health check: true when a query round-trips, else a short reason with no path or host in it. */
  ping(): Promise<true | string>;
  /** Closes the connection (or pool); safe to call twice. */
  close(): Promise<void>;
}

/** Which database to open: the embedded SQLite file, or a PostgreSQL server shared by instances. */
export type DatabaseSource =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string };

/**
 * Opens the database named by `source` and migrates it to the latest schema before resolving. A
 * plain string is an SQLite file (or `':memory:'`), the embedded default that tests and tools open
 * directly. See `openSqliteDatabase` and `openPostgresDatabase` for each one's settings. The
 * PostgreSQL client is loaded only when it is the one configured: an instance on the embedded
 * default does not hold its memory.
 */
export async function openDatabase(source: DatabaseSource | string): Promise<Database> {
  if (typeof source === 'string') return openSqliteDatabase(source);
  if (source.kind === 'sqlite') return openSqliteDatabase(source.file);
  const { openPostgresDatabase } = await import('./postgres-database.ts');
  return openPostgresDatabase(source.url);
}
