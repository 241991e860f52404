import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type SqliteStatement,
} from 'kysely';

// The one SQLite-only trick of the store, kept here. kysely's SQLite driver opens transactions with
// a plain (deferred) BEGIN, which takes the write lock only at the first write: two connections can
// then both read a balance and one of them fails to upgrade (SQLITE_BUSY, which the busy timeout
// does not retry in WAL mode). BEGIN IMMEDIATE takes the write lock before the first read, so
// read-decide-write transactions queue up behind each other instead. Within one process kysely
// already runs one transaction at a time on its single connection; this covers several processes
// sharing the file.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

// kysely treats SQLite DDL as non-transactional and takes no migration lock for it, so two
// processes opening a new file at once both ran the first migration and one failed with "table
// already exists". SQLite DDL is transactional; saying so makes kysely run the pending migrations,
// and its check of what has run, inside one (immediate) transaction: all or nothing, and
// serialised across processes.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** How many prepared statements one database keeps: far more than the store's distinct queries. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * `database` with its prepared statements kept by SQL text and reused. kysely's SQLite connection
 * prepares every statement it runs, and preparing (parsing and planning) costs as much as running
 * one of the store's short queries. A statement may run again with new parameters, and kysely runs
 * one at a time on its single connection (a streamed query holds the connection to its end), so
 * sharing one is safe; SQLite re-prepares it by itself after a schema change. Bounded, least
 * recently used out first, because SQL with inlined values (raw SQL, migrations) would otherwise
 * grow it without end.
 */
export function reusingStatements(database: SqliteDatabase, capacity = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close() {
      statements.clear();
      database.close();
    },
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached !== undefined) {
        // A Map iterates in insertion order: inserting again makes it the most recently used.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > capacity) {
        const oldest = statements.keys().next();
        if (oldest.done !== true) statements.delete(oldest.value);
      }
      return statement;
    },
  };
}

/**
 * kysely's SQLite dialect with transactions that start with BEGIN IMMEDIATE, migrations that run
 * inside them, and prepared statements reused (`reusingStatements`).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    const { database } = config;
    const reusing: SqliteDialectConfig = {
      ...config,
      database:
        typeof database === 'function'
          ? async () => reusingStatements(await database())
          : reusingStatements(database),
    };
    super(reusing);
    this.#config = reusing;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
