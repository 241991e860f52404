// The ports the sign-up, sign-in and session logic needs from a database, next to the account
// ports in `repositories.ts`. Times are ISO 8601 UTC strings with milliseconds.

import type { AccountRecord } from './repositories.ts';

/** A person who signs in to the web dashboard; each user owns exactly one account. */
export interface UserRecord {
  readonly id: string;
  readonly accountId: string;
  /** Trimmed and lower-cased, so the same address always finds the same user. */
  readonly email: string;
  /** From `hashPassword`: scrypt, salted, self-describing. Never the password. */
  readonly passwordHash: string;
  readonly createdAt: string;
  /** The website's language the user chose (a code the web layer checks), or null. */
  readonly language: string | null;
}

/** A signed-in browser. The session token itself is never stored, only its SHA-256. */
export interface SessionRecord {
  readonly tokenHash: string;
  readonly userId: string;
  /** The anti-forgery token every form and studio request of this session must carry. */
  readonly csrfToken: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

export interface UserRepository {
  /**
   * Inserts an account and the user who owns it in one transaction, so there is never an
   * account without its user. `'email_taken'` (nothing written) when a user already has the email.
   */
  createWithAccount(account: AccountRecord, user: UserRecord): Promise<'created' | 'email_taken'>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** Keeps the user's choice of website language; false when there is no such user. */
  setLanguage(userId: string, language: string): Promise<boolean>;
}

export interface SessionRepository {
  insert(session: SessionRecord): Promise<void>;
  /** The session with this token hash and its user; expiry is the caller's to check. */
  find(tokenHash: string): Promise<{ session: SessionRecord; user: UserRecord } | undefined>;
  delete(tokenHash: string): Promise<void>;
  /** Removes every session that expired before `now`; returns how many. */
  deleteExpired(now: string): Promise<number>;
}
