import { newId } from './ids.ts';
import { generateApiKey, hashApiKey, hashesEqual, hasValidChecksum } from './keys.ts';
import type { AccountRecord, AccountRepository, ApiKeyRecord, ApiKeyRepository } from './repositories.ts';

/**
 * A key's last-used time is written at most once per this interval (per key, across all
 * instances): it is for people deciding which keys to revoke, and writing it on every request
 * would turn each authenticated read into a database write.
 */
export const LAST_USED_INTERVAL_MS = 60_000;

export const MAX_NAME_LENGTH = 200;
const MAX_EMAIL_LENGTH = 254;
export const MAX_KEY_NAME_LENGTH = 100;

/** What may be shown about a key: everything stored except its hash. */
export interface ApiKeyView {
  readonly id: string;
  readonly accountId: string;
  readonly name: string | null;
  readonly hint: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
}

export type AuthFailureCode = 'malformed_key' | 'unknown_key' | 'revoked_key';

/** `malformed_key`: wrong shape or checksum, refused without the database. All map to HTTP 401. */
export type AuthResult =
  | { readonly ok: true; readonly accountId: string; readonly keyId: string }
  | { readonly ok: false; readonly code: AuthFailureCode };

export type CreateAccountResult =
  | { readonly ok: true; readonly account: AccountRecord }
  | { readonly ok: false; readonly code: 'invalid_name' | 'invalid_email'; readonly message: string };

export type CreateKeyResult =
  | { readonly ok: true; readonly key: string; readonly record: ApiKeyView }
  | { readonly ok: false; readonly code: 'account_not_found' }
  | { readonly ok: false; readonly code: 'invalid_name'; readonly message: string };

export type ListKeysResult =
  | { readonly ok: true; readonly keys: readonly ApiKeyView[] }
  | { readonly ok: false; readonly code: 'account_not_found' };

export type RevokeKeyResult =
  | { readonly ok: true; readonly key: ApiKeyView }
  | { readonly ok: false; readonly code: 'key_not_found' | 'already_revoked' };

/** What the account service needs: two repositories and, for tests, a clock. */
export interface AccountServiceDeps {
  readonly accounts: AccountRepository;
  readonly keys: ApiKeyRepository;
  readonly now?: () => Date;
}

/**
 * A new account record with its id, after checking the name (1-200 characters) and the optional
 * email; nothing is stored. For callers that store the account together with something else.
 */
export function buildAccount(input: { name: string; email?: string | null }, now: Date): CreateAccountResult {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    return { ok: false, code: 'invalid_name', message: `name must be 1 to ${MAX_NAME_LENGTH} characters` };
  }
  const email = input.email?.trim() || null;
  // Deliberately loose: a confirmation mail is the only real check of an address.
  if (email !== null && (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(email))) {
    return { ok: false, code: 'invalid_email', message: 'email must look like name@example.org' };
  }
  return { ok: true, account: { id: newId('acct'), name, email, createdAt: now.toISOString() } };
}

function toView(record: ApiKeyRecord): ApiKeyView {
  return {
    id: record.id,
    accountId: record.accountId,
    name: record.name,
    hint: record.hint,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
  };
}

/** Accounts and their API keys. Expected failures come back as `{ ok: false, code }`, never thrown. */
export class AccountService {
  readonly #accounts: AccountRepository;
  readonly #keys: ApiKeyRepository;
  readonly #now: () => Date;

  constructor(deps: AccountServiceDeps) {
    this.#accounts = deps.accounts;
    this.#keys = deps.keys;
    this.#now = deps.now ?? (() => new Date());
  }

  /** Creates an account with a display name (1-200 characters) and an optional contact email. */
  async createAccount(input: { name: string; email?: string | null }): Promise<CreateAccountResult> {
    const built = buildAccount(input, this.#now());
    if (built.ok) await this.#accounts.insert(built.account);
    return built;
  }

  /** The account with this id, or undefined. */
  getAccount(accountId: string): Promise<AccountRecord | undefined> {
    return this.#accounts.find(accountId);
  }

  /**
   * Makes a new key for an account. The result carries the key itself: this is the only time it
   * exists outside its owner's hands, since only its hash and hint are stored.
   */
  async createKey(accountId: string, options: { name?: string | null } = {}): Promise<CreateKeyResult> {
    const name = options.name?.trim() || null;
    if (name !== null && name.length > MAX_KEY_NAME_LENGTH) {
      return {
        ok: false,
        code: 'invalid_name',
        message: `key name must be at most ${MAX_KEY_NAME_LENGTH} characters`,
      };
    }
    if ((await this.#accounts.find(accountId)) === undefined) return { ok: false, code: 'account_not_found' };
    const { key, hash, hint } = generateApiKey();
    const record: ApiKeyRecord = {
      id: newId('key'),
      accountId,
      name,
      hash,
      hint,
      createdAt: this.#now().toISOString(),
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#keys.insert(record);
    return { ok: true, key, record: toView(record) };
  }

  /** An account's keys, oldest first, revoked ones included (with their revocation time). */
  async listKeys(accountId: string): Promise<ListKeysResult> {
    if ((await this.#accounts.find(accountId)) === undefined) return { ok: false, code: 'account_not_found' };
    return { ok: true, keys: (await this.#keys.listByAccount(accountId)).map(toView) };
  }

  /**
   * Revokes a key for good: it fails authentication from the next request on. When `accountId` is
   * given (a customer acting on their own keys), a key of another account is reported as not found,
   * so key ids of other accounts cannot be probed.
   */
  async revokeKey(keyId: string, accountId?: string): Promise<RevokeKeyResult> {
    const record = await this.#keys.find(keyId);
    if (record === undefined || (accountId !== undefined && record.accountId !== accountId)) {
      return { ok: false, code: 'key_not_found' };
    }
    const at = this.#now().toISOString();
    if (!(await this.#keys.revoke(keyId, at))) return { ok: false, code: 'already_revoked' };
    return { ok: true, key: toView({ ...record, revokedAt: at }) };
  }

  /**
   * Who a presented key belongs to. The checksum is checked first, so typos and fakes cost no
   * database round trip; then the key's SHA-256 is looked up and compared in constant time;
   * revoked keys fail. On success the key's last-used time is refreshed when it is older than
   * `LAST_USED_INTERVAL_MS` (one conditional write per key per minute at most).
   */
  async authenticate(key: string): Promise<AuthResult> {
    if (typeof key !== 'string' || !hasValidChecksum(key)) return { ok: false, code: 'malformed_key' };
    const hash = hashApiKey(key);
    const record = await this.#keys.findByHash(hash);
    if (record === undefined || !hashesEqual(record.hash, hash)) return { ok: false, code: 'unknown_key' };
    if (record.revokedAt !== null) return { ok: false, code: 'revoked_key' };

    const now = this.#now();
    const last = record.lastUsedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(record.lastUsedAt);
    if (now.getTime() - last >= LAST_USED_INTERVAL_MS) {
      const staleBefore = new Date(now.getTime() - LAST_USED_INTERVAL_MS + 1).toISOString();
      try {
        await this.#keys.touch(record.id, now.toISOString(), staleBefore);
      } catch {
        // Last-used is advisory: a busy database must not turn a valid key into a failed request.
      }
    }
    return { ok: true, accountId: record.accountId, keyId: record.id };
  }
}
