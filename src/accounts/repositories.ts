// The ports the account and billing logic needs from a database. The store folder implements
// them (embedded SQLite, or PostgreSQL for several instances); nothing here knows which.
// Times are ISO 8601 UTC strings with milliseconds, which sort the same as the instants they name.

/** A customer account. */
export interface AccountRecord {
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  readonly createdAt: string;
}

/** A stored API key: never the key itself, only its SHA-256 hash and a display hint. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string | null;
  readonly hash: string;
  readonly hint: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

/**
 * What a ledger entry records. A refund reverses one request's charge: `refund` gives its tokens
 * back, `free_use_refund` gives its free generation back. It carries the charged request's id.
 */
export type LedgerKind = 'top_up' | 'charge' | 'free_use' | 'refund' | 'free_use_refund';

/**
 * One line of an account's ledger. `tokens` is signed: top-ups and refunds add, charges subtract,
 * free uses and their refunds 0.
 */
export interface LedgerEntry {
  readonly id: string;
  readonly accountId: string;
  /** 1, 2, 3... per account, in the order entries were written; newest-first listing uses it. */
  readonly seq: number;
  readonly kind: LedgerKind;
  readonly tokens: number;
  readonly characters: number | null;
  readonly language: string | null;
  readonly seconds: number | null;
  /** The request charged, on a charge or free use and on its refund; null on a top-up. */
  readonly requestId: string | null;
  readonly createdAt: string;
}

/** What is appended; the store assigns `accountId` (the locked account) and `seq`. */
export type NewLedgerEntry = Omit<LedgerEntry, 'accountId' | 'seq'>;

/** One UTC day's use in one spoken language, summed from the ledger. */
export interface DailyUsage {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly language: string | null;
  /** Tokens charged, less the tokens refunded: what that day's use cost. */
  readonly tokens: number;
  /** Seconds of audio generated, charged or free. */
  readonly seconds: number;
}

/** Totals over an account's whole ledger. */
export interface LedgerSummary {
  /** The sum of `tokens` over every entry: the balance, by definition. */
  readonly balance: number;
  /** Free generations used: `free_use` entries less `free_use_refund` entries. */
  readonly freeUses: number;
}

export interface AccountRepository {
  insert(account: AccountRecord): Promise<void>;
  find(id: string): Promise<AccountRecord | undefined>;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  find(id: string): Promise<ApiKeyRecord | undefined>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Keys of an account, oldest first, revoked ones included. */
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Sets `revoked_at` unless already set; true when this call revoked the key. */
  revoke(id: string, at: string): Promise<boolean>;
  /**
   * Sets `last_used_at = at` only when it is empty or older than `staleBefore`, as one conditional
   * UPDATE, so concurrent requests on many instances still write at most once per interval.
   */
  touch(id: string, at: string, staleBefore: string): Promise<boolean>;
}

/** Ledger operations valid only while the account is locked (see `LedgerRepository.withAccountLock`). */
export interface LockedLedger {
  summary(): Promise<LedgerSummary>;
  /** Whether any account's ledger holds an entry for this request (charged, or refunded). */
  hasRequest(requestId: string): Promise<boolean>;
  /** This account's entries for one request, oldest first: its charge and, if any, its refund. */
  requestEntries(requestId: string): Promise<LedgerEntry[]>;
  append(entry: NewLedgerEntry): Promise<LedgerEntry>;
}

/** When `LedgerRepository.withAccountLock` resolves: once its commit is on disk, unless told otherwise. */
export interface AccountLockOptions {
  /**
   * Resolve once committed, the flush that takes the commit to disk under way (about a
   * millisecond): only for entries that take from the customer (a charge), whose audio need not
   * wait for the disk. A power cut within that flush can lose such an entry, never one that gives
   * the customer something (a top-up, a refund), which always waits for its flush.
   */
  readonly beforeFlushed?: boolean;
}

export interface LedgerRepository {
  /**
   * Runs `work` in one transaction in which no other writer can change this account's ledger,
   * and commits when it resolves (rolls back when it throws). SQLite: an immediate transaction
   * (the database-wide write lock, taken before the first read). PostgreSQL: `SELECT ... FOR
   * UPDATE` on the account row. Resolves `{ found: false }` without calling `work` when the
   * account does not exist.
   */
  withAccountLock<T>(
    accountId: string,
    work: (ledger: LockedLedger) => Promise<T>,
    options?: AccountLockOptions,
  ): Promise<{ found: true; value: T } | { found: false }>;
  /**
   * Sets the audio duration of request `requestId`'s charge or free use (a stream's real duration,
   * known once it has ended). Tokens and totals are untouched. False when there is no such entry.
   */
  recordSeconds(accountId: string, requestId: string, seconds: number): Promise<boolean>;
  /**
   * Unlocked totals, or undefined when the account does not exist (one look-up for both): may be
   * stale by the time they are used, so never decide a charge on them.
   */
  summary(accountId: string): Promise<LedgerSummary | undefined>;
  /** Newest first; `beforeSeq` pages back through older entries. */
  list(accountId: string, options: { limit: number; beforeSeq?: number }): Promise<LedgerEntry[]>;
  /**
   * Charges, free uses and their refunds written at or after `since` (ISO), summed per UTC day
   * and language, in no particular order; top-ups are not use and are left out.
   */
  dailyUsage(accountId: string, since: string): Promise<DailyUsage[]>;
}
