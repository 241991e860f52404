import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type SqliteStatement,
} from 'kysely';
import { type DirectLane, runDirectly } from './prepared-query.ts';
import type { Schema } from './schema.ts';
import { reportingUnavailable, translateUnavailable, type UnavailableRule } from './unavailable-dialect.ts';

function resultOf<R>(statement: SqliteStatement, parameters: readonly unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
    insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
    rows: [],
  };
}

/**
 * The one connection of a SQLite database, and who holds it. kysely holds it for each query, and
 * for the whole of a transaction or a `connection()` scope, through the driver below, one holder
 * at a time in the order they asked. Every statement runs on the request thread and to its end
 * before anything else runs (better-sqlite3 is synchronous), so a statement run while nobody
 * holds the connection needs no turn: `tryRun` runs it at once, without kysely's executor (the
 * executor's promises and closures were about 6 KB and 10 µs a statement, more than SQLite takes
 * to run a call's short reads; prepared-query.ts). `exclusive` holds the connection for a piece of
 * work that runs to its end at once (a bookkeeping write between its two pragmas), and the
 * statements that work runs go straight to SQLite too; `transaction` holds it for a transaction,
 * whose work queries through `owner`, straight to SQLite as well.
 */
export class SqliteLane implements DirectLane {
  readonly #database: SqliteDatabase;
  readonly #isUnavailable: UnavailableRule;
  #held = false;
  #exclusive = false;
  #closed = false;
  /** A `transaction`'s work is running: `owner` may use the connection. */
  #inTransaction = false;
  readonly #waiting: (() => void)[] = [];
  /**
   * The kysely instance a `transaction`'s work is given: its queries run on the connection the
   * transaction holds, at once; outside that work they fail.
   */
  readonly owner: Kysely<Schema>;

  constructor(database: SqliteDatabase, isUnavailable: UnavailableRule) {
    this.#database = database;
    this.#isUnavailable = isUnavailable;
    this.owner = new Kysely<Schema>({ dialect: reportingUnavailable(new OwnerDialect(this), isUnavailable) });
    runDirectly(this.owner, {
      tryRun: <R>(sql: string, parameters: readonly unknown[]) =>
        this.#inTransaction
          ? this.#runNow<R>(sql, parameters)
          : Promise.reject<QueryResult<R>>(new Error('the SQLite transaction has ended')),
    });
  }

  /** Whether `owner` may use the connection now. */
  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  /** Nobody holds the connection (and the database is open). */
  get free(): boolean {
    return !this.#held && !this.#closed;
  }

  /** Resolves once the caller holds the connection; the holders take turns in the order they asked. */
  lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Gives the connection to the next in line, or leaves it free. */
  unlock(): void {
    const next = this.#waiting.shift();
    if (next === undefined) this.#held = false;
    else next();
  }

  /** Runs `sql` on the connection as kysely's SQLite driver would, its errors as they are. */
  run<R>(sql: string, parameters: readonly unknown[] = []): QueryResult<R> {
    return resultOf<R>(this.#database.prepare(sql), parameters);
  }

  /** The rows of the select `sql`, one by one, as kysely's SQLite driver streams them. */
  iterate(sql: string, parameters: readonly unknown[]): IterableIterator<unknown> {
    return this.#database.prepare(sql).iterate(parameters);
  }

  tryRun<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> | undefined {
    if (!this.#exclusive && !this.free) return undefined;
    return this.#runNow(sql, parameters);
  }

  #runNow<R>(sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.run<R>(sql, parameters));
    } catch (error) {
      return Promise.reject(translateUnavailable(error, this.#isUnavailable));
    }
  }

  /**
   * `work` in a transaction on the connection, held from start to end, as kysely runs one: BEGIN
   * IMMEDIATE, then COMMIT, or ROLLBACK when the work or the commit fails; `before` and `after`
   * run around it (the durability's pragmas), `after` whatever happened. The work queries
   * through `owner`. Call only when `free`.
   */
  async transaction<T>(work: (db: Kysely<Schema>) => Promise<T>, before: string, after: string): Promise<T> {
    if (!this.free) throw new Error('the SQLite connection is held');
    this.#held = true;
    this.#inTransaction = true;
    try {
      this.run(before);
      try {
        this.run('begin immediate');
        try {
          const result = await work(this.owner);
          this.run('commit');
          return result;
        } catch (error) {
          this.run('rollback');
          throw error;
        }
      } finally {
        this.run(after);
      }
    } catch (error) {
      throw this.translate(error);
    } finally {
      this.#inTransaction = false;
      this.unlock();
    }
  }

  /**
   * `work` run with the connection held, its statements run at once (`tryRun`); only the
   * statements it runs before it returns, so work that awaits first runs the rest in turn, as any
   * query does. Call only when `free`.
   */
  exclusive<T>(work: () => T): T {
    if (!this.free) throw new Error('the SQLite connection is held');
    this.#held = true;
    this.#exclusive = true;
    try {
      return work();
    } finally {
      this.#exclusive = false;
      this.unlock();
    }
  }

  /** Errors of `run` as the store reports them (an outage as `StoreUnavailableError`). */
  translate(error: unknown): unknown {
    return translateUnavailable(error, this.#isUnavailable);
  }

  close(): void {
    this.#closed = true;
    this.#database.close();
  }
}

class LaneConnection implements DatabaseConnection {
  /** For `SqliteLane.owner`: only while its transaction runs. */
  readonly #whileInTransaction: boolean;

  constructor(
    readonly lane: SqliteLane,
    whileInTransaction = false,
  ) {
    this.#whileInTransaction = whileInTransaction;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#whileInTransaction && !this.lane.inTransaction)
      return Promise.reject(new Error('the SQLite transaction has ended'));
    return Promise.resolve(this.lane.run<R>(query.sql, query.parameters));
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query))
      throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of this.lane.iterate(query.sql, query.parameters)) yield { rows: [row as R] };
  }
}

// The driver of `SqliteLane.owner`: the connection its transaction holds, while it holds it.
class OwnerDriver implements Driver {
  readonly #connection: LaneConnection;

  constructor(lane: SqliteLane) {
    this.#connection = new LaneConnection(lane, true);
  }

  async init(): Promise<void> {}

  // Handed over always (a failure to get a connection reads as an outage, unavailable-dialect.ts);
  // its queries fail once the transaction has ended.
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    throw new Error('a transaction is already open');
  }

  async commitTransaction(): Promise<void> {
    throw new Error('the transaction commits at the end of its work');
  }

  async rollbackTransaction(): Promise<void> {
    throw new Error('the transaction rolls back when its work fails');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

class OwnerDialect implements Dialect {
  constructor(readonly lane: SqliteLane) {}

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createDriver(): Driver {
    return new OwnerDriver(this.lane);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

// The one SQLite-only trick of the store, kept here. kysely's SQLite driver opens transactions with
// a plain (deferred) BEGIN, which takes the write lock only at the first write: two connections can
// then both read a balance and one of them fails to upgrade (SQLITE_BUSY, which the busy timeout
// does not retry in WAL mode). BEGIN IMMEDIATE takes the write lock before the first read, so
// read-decide-write transactions queue up behind each other instead. Within one process kysely
// already runs one transaction at a time on its single connection; this covers several processes
// sharing the file. The connection is held through the lane (`SqliteLane`), so that a statement
// run while nobody holds it may skip kysely.
class ImmediateSqliteDriver implements Driver {
  readonly #lane: SqliteLane;
  readonly #connection: LaneConnection;

  constructor(lane: SqliteLane) {
    this.#lane = lane;
    this.#connection = new LaneConnection(lane);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lane.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(): Promise<void> {
    this.#lane.unlock();
  }

  async destroy(): Promise<void> {
    this.#lane.close();
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
 * inside them, prepared statements reused (`reusingStatements`), and the connection held through
 * `lane`, whose errors are reported by `isUnavailable` as the driver's are (unavailable-dialect.ts).
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly lane: SqliteLane;

  constructor(config: { readonly database: SqliteDatabase; readonly isUnavailable: UnavailableRule }) {
    const database = reusingStatements(config.database);
    super({ database });
    this.lane = new SqliteLane(database, config.isUnavailable);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.lane);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
