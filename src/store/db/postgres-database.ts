import { Kysely, PostgresDialect } from 'kysely';
import { DatabaseError, Pool } from 'pg';
import { errorCode, withErrorCode } from '../error-code.ts';
import type { Database } from './database.ts';
import { migrateToLatest } from './migrations.ts';
import { flushedByCommit } from './repositories.ts';
import type { Schema } from './schema.ts';
import { sqlDatabase } from './sql-database.ts';
import { reportingUnavailable } from './unavailable-dialect.ts';

/** Options for `openPostgresDatabase`. */
export interface PostgresDatabaseOptions {
  /** Connections this process keeps at most; default 10. */
  readonly poolSize?: number;
  /** How long a query waits for a connection (new or from the busy pool) before failing; default 5000 ms. */
  readonly connectTimeoutMs?: number;
}

// Socket errors: the server is down, unreachable or dropped the connection.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATEs of an outage rather than of a query: class 08 (connection exception), 57P01-57P03
// (shutting down, crashed, starting up) and 53300 (too many connections).
const OUTAGE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
// pg reports a connection lost mid-query, or a pool wait that timed out, with no code at all.
const OUTAGE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/** Whether a pg error means the server cannot be reached now, rather than a bad query. */
function isPostgresOutage(error: unknown): boolean {
  if (error instanceof DatabaseError) return OUTAGE_SQLSTATE.test(error.code ?? '');
  const code = errorCode(error);
  if (code !== undefined) return SOCKET_CODES.has(code);
  return error instanceof Error && OUTAGE_MESSAGE.test(error.message);
}

/**
 * Connects a pool to the PostgreSQL database at `url` (postgres://user:password@host:port/db;
 * `?options=-c search_path=name` selects a schema) and applies every pending migration before
 * resolving. Fails fast, with no credentials in the message, when the server cannot be reached, so
 * a service never starts without its database. Migrations take kysely's advisory lock, so several
 * instances may start against a new database at once.
 */
export async function openPostgresDatabase(
  url: string,
  options: PostgresDatabaseOptions = {},
): Promise<Database> {
  const pool = new Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // Names the connections in the server's activity view; a URL that sets its own wins.
    application_name: 'ijwi',
  });
  // A connection that breaks (server restart, failover, network) emits 'error', which crashes the
  // process when nobody listens: on the pool while the connection is idle (the pool then drops it),
  // on the connection itself while a query runs on it (that query also rejects, which is the report
  // that matters, and the pool drops the connection when it comes back). The next query opens a new
  // connection, and the health check reports the database until one succeeds.
  pool.on('error', () => {});
  pool.on('connect', (connection) => {
    connection.on('error', () => {});
  });
  // An outage reaches callers as a StoreUnavailableError (503 at the HTTP edge), and the pool
  // opens fresh connections once the server answers again: recovery needs no restart.
  const kysely = new Kysely<Schema>({
    dialect: reportingUnavailable(new PostgresDialect({ pool }), isPostgresOutage),
  });
  try {
    let schema: string | null;
    try {
      const result = await pool.query<{ schema: string | null }>('select current_schema() as schema');
      schema = result.rows[0]?.schema ?? null;
    } catch (error) {
      throw new Error(withErrorCode('cannot reach the PostgreSQL database', error), { cause: error });
    }
    if (schema === null) throw new Error('the PostgreSQL search_path names no existing schema');
    await migrateToLatest(kysely as Kysely<unknown>, { schema });
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  // Several processes share the database, so the ledger locks the account row in each transaction.
  // A commit waits for the server's flush without holding this thread: every write is flushed.
  return sqlDatabase(kysely, { rowLocks: true, durability: flushedByCommit });
}
