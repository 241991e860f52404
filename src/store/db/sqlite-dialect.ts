import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
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

/**
 * kysely's SQLite dialect with transactions that start with BEGIN IMMEDIATE and migrations that
 * run inside them.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
