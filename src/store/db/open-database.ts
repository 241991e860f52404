import type { Database, DatabaseSource } from './database.ts';
import { openSqliteDatabase } from './sqlite-database.ts';

// Apart from `database.ts`, which only declares what an open database is: the implementations
// import that interface, so the factory that imports them cannot live beside it.

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
