import type {
  CompiledQuery,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { withErrorCode } from '../error-code.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';

/** Says whether a driver error means "the database cannot be reached now" rather than a bug. */
export type UnavailableRule = (error: unknown) => boolean;

// Savepoints are left out on purpose: the stores use none, and kysely refuses them with a clear
// error on a driver without them.
//
// Every call into the driver goes through here, so every repository, transaction and migration
// reports an outage the same way without knowing the driver: as a StoreUnavailableError, which
// the HTTP edge turns into 503. Other errors (constraint violations, bugs) pass through untouched.
export function translateUnavailable(error: unknown, isUnavailable: UnavailableRule): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error;
  return new StoreUnavailableError('database', withErrorCode('unreachable', error), { cause: error });
}

async function guarded<T>(isUnavailable: UnavailableRule, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translateUnavailable(error, isUnavailable);
  }
}

class GuardedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    readonly isUnavailable: UnavailableRule,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return guarded(this.isUnavailable, () => this.inner.executeQuery<R>(query));
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (error) {
      throw translateUnavailable(error, this.isUnavailable);
    }
  }
}

// Drivers keep state per connection object (the PostgreSQL driver releases its pooled client
// through it), so they are always handed their own connection back, never the wrapper.
const innerOf = (connection: DatabaseConnection): DatabaseConnection =>
  connection instanceof GuardedConnection ? connection.inner : connection;

class GuardedDriver implements Driver {
  constructor(
    readonly inner: Driver,
    readonly isUnavailable: UnavailableRule,
  ) {}

  // Failing to open or borrow a connection is an outage whatever the error says.
  init(): Promise<void> {
    return guarded(
      () => true,
      () => this.inner.init(),
    );
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await guarded(
      () => true,
      () => this.inner.acquireConnection(),
    );
    return new GuardedConnection(connection, this.isUnavailable);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return guarded(this.isUnavailable, () => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return guarded(this.isUnavailable, () => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return guarded(this.isUnavailable, () => this.inner.rollbackTransaction(innerOf(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * `dialect`, with every driver error that `isUnavailable` recognises (and every failure to get a
 * connection) thrown as a `StoreUnavailableError`.
 */
export function reportingUnavailable(dialect: Dialect, isUnavailable: UnavailableRule): Dialect {
  return {
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createDriver: (): Driver => new GuardedDriver(dialect.createDriver(), isUnavailable),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => dialect.createIntrospector(db),
  };
}
