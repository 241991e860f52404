import type { Kysely } from 'kysely';
import { withErrorCode } from '../error-code.ts';
import { StoreUnavailableError } from '../store-unavailable.ts';
import type { Database } from './database.ts';
import { SqlDictionaryRepository } from './dictionary-repository.ts';
import { SqlPlayUrlRepository } from './play-url-repository.ts';
import {
  SqlAccountRepository,
  SqlApiKeyRepository,
  SqlLedgerRepository,
  type WriteDurability,
} from './repositories.ts';
import type { Schema } from './schema.ts';
import { SqlTopUpRequestRepository } from './topup-request-repository.ts';

/** What differs between dialects once the query builder is open. */
export interface SqlDatabaseOptions {
  /** Passed to the ledger: lock the account row (PostgreSQL) or rely on the dialect's transactions. */
  readonly rowLocks: boolean;
  /** How the ledger's transactions and the bookkeeping of every call reach the disk. */
  readonly durability: WriteDurability;
}

/**
 * The `Database` over an open, migrated query builder: the same repositories, health check and
 * close for every dialect, so the SQL is written once.
 */
export function sqlDatabase(kysely: Kysely<Schema>, options: SqlDatabaseOptions): Database {
  let closed = false;
  return {
    accounts: new SqlAccountRepository(kysely),
    keys: new SqlApiKeyRepository(kysely, options),
    ledger: new SqlLedgerRepository(kysely, options),
    dictionaries: new SqlDictionaryRepository(kysely, { rowLocks: options.rowLocks }),
    topUpRequests: new SqlTopUpRequestRepository(kysely),
    playUrls: new SqlPlayUrlRepository(kysely, { rowLocks: options.rowLocks }),
    kysely,
    async ping() {
      if (closed) return 'closed';
      const durable = options.durability.check();
      if (durable !== true) return durable;
      try {
        await kysely.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
        return true;
      } catch (error) {
        return withErrorCode('query failed', error instanceof StoreUnavailableError ? error.cause : error);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
      await options.durability.close();
    },
  };
}
