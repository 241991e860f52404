import { type Kysely, type Selectable, sql } from 'kysely';
import type {
  AccountLockOptions,
  AccountRecord,
  AccountRepository,
  ApiKeyRecord,
  ApiKeyRepository,
  DailyUsage,
  LedgerEntry,
  LedgerKind,
  LedgerRepository,
  LedgerSummary,
  LockedLedger,
  NewLedgerEntry,
} from '../../accounts/repositories.ts';
import { prepared } from './prepared-query.ts';
import type { AccountsTable, ApiKeysTable, LedgerTable, Schema } from './schema.ts';

// SQL implementations of the account ports, shared by every dialect. Rules: portable SQL only;
// anything dialect-specific is a constructor option (see `rowLocks`, `durability`), never a branch
// on a driver.

/**
 * How the store's frequent writes reach the disk, where a dialect has a choice (see
 * sqlite-durability.ts). Each is done with only once what it promises holds.
 */
export interface WriteDurability {
  /**
   * A write that is not money: a key's time of last use, the seconds a call was heard. Every call
   * makes them, so it may stay unflushed until the next flushed commit takes it to disk.
   */
  bookkeeping<T>(db: Kysely<Schema>, write: (db: Kysely<Schema>) => Promise<T>): Promise<T>;
  /**
   * A transaction of the ledger (a charge, a refund, a top-up): committed and on disk, or with
   * `beforeFlushed` committed and its flush under way (`AccountLockOptions`).
   */
  ledger<T>(
    db: Kysely<Schema>,
    work: (trx: Kysely<Schema>) => Promise<T>,
    options: AccountLockOptions,
  ): Promise<T>;
  /** For the health check: true, or a short reason when a write may not have reached the disk. */
  check(): true | string;
  /** Lets go of what it holds, once the database is closed. */
  close(): Promise<void>;
}

/** Every write flushed by its commit, as the database does it (a PostgreSQL server's commit). */
export const flushedByCommit: WriteDurability = {
  bookkeeping: (db, write) => write(db),
  ledger: (db, work) => db.transaction().execute(work),
  check: () => true,
  close: async () => {},
};

// PostgreSQL's driver hands bigint columns (and SUM, COUNT) over as strings.
function toNumber(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

function toAccount(row: Selectable<AccountsTable>): AccountRecord {
  return { id: row.id, name: row.name, email: row.email, createdAt: row.created_at };
}

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    hash: row.hash,
    hint: row.hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

function toLedgerEntry(row: Selectable<LedgerTable>): LedgerEntry {
  return {
    id: row.id,
    accountId: row.account_id,
    seq: toNumber(row.seq),
    kind: row.kind,
    tokens: toNumber(row.tokens),
    characters: row.characters === null ? null : toNumber(row.characters),
    language: row.language,
    seconds: row.seconds === null ? null : toNumber(row.seconds),
    requestId: row.request_id,
    createdAt: row.created_at,
  };
}

/** Accounts in SQL. */
export class SqlAccountRepository implements AccountRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async insert(account: AccountRecord): Promise<void> {
    await this.#db
      .insertInto('accounts')
      .values({ id: account.id, name: account.name, email: account.email, created_at: account.createdAt })
      .execute();
  }

  async find(id: string): Promise<AccountRecord | undefined> {
    const row = await this.#db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }
}

/** API keys in SQL: hashes and hints only, never a key. */
export class SqlApiKeyRepository implements ApiKeyRepository {
  readonly #db: Kysely<Schema>;
  readonly #durability: WriteDurability;
  // Every call's authentication (prepared-query.ts).
  readonly #byHash = prepared((db, { hash }: { hash: string }) =>
    db.selectFrom('api_keys').selectAll().where('hash', '=', hash),
  );
  readonly #touch = prepared((db, key: { id: string; at: string; staleBefore: string }) =>
    db
      .updateTable('api_keys')
      .set({ last_used_at: key.at })
      .where('id', '=', key.id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', key.staleBefore)])),
  );

  constructor(db: Kysely<Schema>, options: { durability: WriteDurability }) {
    this.#db = db;
    this.#durability = options.durability;
  }

  async insert(key: ApiKeyRecord): Promise<void> {
    await this.#db
      .insertInto('api_keys')
      .values({
        id: key.id,
        account_id: key.accountId,
        name: key.name,
        hash: key.hash,
        hint: key.hint,
        created_at: key.createdAt,
        last_used_at: key.lastUsedAt,
        revoked_at: key.revokedAt,
      })
      .execute();
  }

  async find(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.#db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toApiKey(row);
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = (await this.#byHash(this.#db, { hash })).rows[0];
    return row && toApiKey(row);
  }

  async listByAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.#db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(toApiKey);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async touch(id: string, at: string, staleBefore: string): Promise<boolean> {
    const result = await this.#durability.bookkeeping(this.#db, (db) =>
      this.#touch(db, { id, at, staleBefore }),
    );
    return (result.numAffectedRows ?? 0n) > 0n;
  }
}

// Every entry carries the account's totals after it (written by `append`, inside the account
// lock), so an account's totals are its newest entry's: one seek on the unique (account_id, seq)
// index however long the history. No entry yet: nothing spent, nothing used.
// The statements of a charge, prepared once for every transaction (prepared-query.ts).
function chargeStatements() {
  return {
    newestEntry: prepared((db, { accountId }: { accountId: string }) =>
      db
        .selectFrom('ledger')
        .select(['seq', 'balance_after', 'free_uses_after'])
        .where('account_id', '=', accountId)
        .orderBy('seq', 'desc')
        .limit(1),
    ),
    hasRequest: prepared((db, { requestId }: { requestId: string }) =>
      db.selectFrom('ledger').select('id').where('request_id', '=', requestId),
    ),
    append: prepared((db, row: Selectable<LedgerTable>) => db.insertInto('ledger').values(row)),
  };
}

type ChargeStatements = ReturnType<typeof chargeStatements>;

// How each kind of entry changes the count of free generations used.
const FREE_USE_CHANGE: Readonly<Record<LedgerKind, number>> = {
  top_up: 0,
  charge: 0,
  free_use: 1,
  refund: 0,
  free_use_refund: -1,
};

interface Totals {
  readonly seq: number;
  readonly summary: LedgerSummary;
}

class SqlLockedLedger implements LockedLedger {
  readonly #trx: Kysely<Schema>;
  readonly #accountId: string;
  readonly #statements: ChargeStatements;
  // The newest entry's totals, once read: nobody else can append while the account is locked, so
  // `append` after `summary` needs no second read.
  #totals: Totals | undefined;

  constructor(trx: Kysely<Schema>, accountId: string, statements: ChargeStatements) {
    this.#trx = trx;
    this.#accountId = accountId;
    this.#statements = statements;
  }

  async #current(): Promise<Totals> {
    if (this.#totals === undefined) {
      const row = (await this.#statements.newestEntry(this.#trx, { accountId: this.#accountId })).rows[0];
      this.#totals = {
        seq: toNumber(row?.seq),
        summary: { balance: toNumber(row?.balance_after), freeUses: toNumber(row?.free_uses_after) },
      };
    }
    return this.#totals;
  }

  async summary(): Promise<LedgerSummary> {
    return (await this.#current()).summary;
  }

  async hasRequest(requestId: string): Promise<boolean> {
    return (await this.#statements.hasRequest(this.#trx, { requestId })).rows.length > 0;
  }

  async requestEntries(requestId: string): Promise<LedgerEntry[]> {
    const rows = await this.#trx
      .selectFrom('ledger')
      .selectAll()
      .where('request_id', '=', requestId)
      .where('account_id', '=', this.#accountId)
      .orderBy('seq', 'asc')
      .execute();
    return rows.map(toLedgerEntry);
  }

  async append(entry: NewLedgerEntry): Promise<LedgerEntry> {
    const before = await this.#current();
    const after: Totals = {
      seq: before.seq + 1,
      summary: {
        balance: before.summary.balance + entry.tokens,
        freeUses: before.summary.freeUses + FREE_USE_CHANGE[entry.kind],
      },
    };
    const row: Selectable<LedgerTable> = {
      id: entry.id,
      account_id: this.#accountId,
      seq: after.seq,
      kind: entry.kind,
      tokens: entry.tokens,
      characters: entry.characters,
      language: entry.language,
      seconds: entry.seconds,
      request_id: entry.requestId,
      created_at: entry.createdAt,
      balance_after: after.summary.balance,
      free_uses_after: after.summary.freeUses,
    };
    await this.#statements.append(this.#trx, row);
    this.#totals = after;
    return toLedgerEntry(row);
  }
}

/** Options for `SqlLedgerRepository`. */
export interface SqlLedgerOptions {
  /**
   * Lock the account row with `SELECT ... FOR UPDATE` inside the transaction: true for
   * PostgreSQL. False for SQLite, which has no row locks and is serialised by its immediate
   * transactions instead (see sqlite-dialect.ts).
   */
  readonly rowLocks: boolean;
  /** How its transactions and the seconds a call was heard reach the disk. */
  readonly durability: WriteDurability;
}

/** The token ledger in SQL. */
export class SqlLedgerRepository implements LedgerRepository {
  readonly #db: Kysely<Schema>;
  readonly #durability: WriteDurability;
  // What every billed call runs, prepared once (prepared-query.ts).
  readonly #charge = chargeStatements();
  readonly #lockAccount;
  readonly #recordSeconds = prepared((db, call: { accountId: string; requestId: string; seconds: number }) =>
    db
      .updateTable('ledger')
      .set({ seconds: call.seconds })
      .where('account_id', '=', call.accountId)
      .where('request_id', '=', call.requestId)
      .where('kind', 'in', ['charge', 'free_use']),
  );
  readonly #summary = prepared((db, { accountId }: { accountId: string }) =>
    db
      .selectFrom('accounts')
      .leftJoin('ledger', (join) =>
        join.onRef('ledger.account_id', '=', 'accounts.id').on('ledger.seq', '=', (eb) =>
          eb
            .selectFrom('ledger as newest')
            .select((max) => max.fn.max('newest.seq').as('seq'))
            .where('newest.account_id', '=', accountId),
        ),
      )
      .select(['ledger.balance_after', 'ledger.free_uses_after'])
      .where('accounts.id', '=', accountId),
  );

  constructor(db: Kysely<Schema>, options: SqlLedgerOptions) {
    this.#db = db;
    this.#durability = options.durability;
    this.#lockAccount = prepared((trx, { accountId }: { accountId: string }) => {
      const query = trx.selectFrom('accounts').select('id').where('id', '=', accountId);
      return options.rowLocks ? query.forUpdate() : query;
    });
  }

  async recordSeconds(accountId: string, requestId: string, seconds: number): Promise<boolean> {
    const result = await this.#durability.bookkeeping(this.#db, (db) =>
      this.#recordSeconds(db, { accountId, requestId, seconds }),
    );
    return Number(result.numAffectedRows ?? 0n) > 0;
  }

  withAccountLock<T>(
    accountId: string,
    work: (ledger: LockedLedger) => Promise<T>,
    options: AccountLockOptions = {},
  ): Promise<{ found: true; value: T } | { found: false }> {
    return this.#durability.ledger(
      this.#db,
      async (trx) => {
        const account = (await this.#lockAccount(trx, { accountId })).rows[0];
        if (account === undefined) return { found: false } as const;
        return { found: true, value: await work(new SqlLockedLedger(trx, accountId, this.#charge)) } as const;
      },
      options,
    );
  }

  async summary(accountId: string): Promise<LedgerSummary | undefined> {
    // One statement for "does the account exist" and its totals, the hot path of every request.
    // The newest seq is looked up by the id itself, not by `accounts.id`: uncorrelated, it is one
    // index seek evaluated once, where PostgreSQL would re-run a correlated one per ledger row.
    const row = (await this.#summary(this.#db, { accountId })).rows[0];
    return row && { balance: toNumber(row.balance_after), freeUses: toNumber(row.free_uses_after) };
  }

  async list(accountId: string, options: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]> {
    let query = this.#db.selectFrom('ledger').selectAll().where('account_id', '=', accountId);
    if (options.beforeSeq !== undefined) query = query.where('seq', '<', options.beforeSeq);
    const rows = await query.orderBy('seq', 'desc').limit(options.limit).execute();
    return rows.map(toLedgerEntry);
  }

  async dailyUsage(accountId: string, since: string): Promise<DailyUsage[]> {
    // The day is the ISO time's first ten characters (times are stored as UTC ISO text), which
    // `substr` cuts the same way in both databases. Charges are negative and their refunds
    // positive, so their negated sum is what was charged and not given back.
    const day = sql<string>`substr(created_at, 1, 10)`;
    const rows = await this.#db
      .selectFrom('ledger')
      .select([
        day.as('day'),
        'language',
        sql<number | string>`sum(case when kind in ('charge', 'refund') then -tokens else 0 end)`.as(
          'tokens',
        ),
        sql<number | string | null>`sum(seconds)`.as('seconds'),
      ])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', since)
      .where('kind', 'in', ['charge', 'free_use', 'refund', 'free_use_refund'])
      // A charge and the refund that reversed it are left out together: their tokens net to
      // nothing, and the seconds stay on the charge (a refund carries none), audio nobody heard.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ledger as reversal')
              .select('reversal.seq')
              .whereRef('reversal.account_id', '=', 'ledger.account_id')
              .whereRef('reversal.request_id', '=', 'ledger.request_id')
              .where('reversal.kind', 'in', ['refund', 'free_use_refund']),
          ),
        ),
      )
      .groupBy([day, 'language'])
      .execute();
    return rows.map((row) => ({
      day: row.day,
      language: row.language,
      tokens: toNumber(row.tokens),
      seconds: row.seconds === null ? 0 : Number(row.seconds),
    }));
  }
}
