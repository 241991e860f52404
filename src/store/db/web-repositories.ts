import type { Kysely, Selectable } from 'kysely';
import type { AccountRecord } from '../../accounts/repositories.ts';
import type { StudioAudioRepository } from '../../accounts/studio-audio.ts';
import type {
  SessionRecord,
  SessionRepository,
  UserRecord,
  UserRepository,
} from '../../accounts/user-repositories.ts';
import type { Schema, SessionsTable, UsersTable } from './schema.ts';

// SQL implementations of the user and session ports (the web dashboard's sign-in), written once
// for every dialect like the account repositories next door.

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    language: row.language,
  };
}

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Users in SQL: password hashes only, never a password. */
export class SqlUserRepository implements UserRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async createWithAccount(account: AccountRecord, user: UserRecord): Promise<'created' | 'email_taken'> {
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const taken = await trx
          .selectFrom('users')
          .select('id')
          .where('email', '=', user.email)
          .executeTakeFirst();
        if (taken) return 'email_taken' as const;
        await trx
          .insertInto('accounts')
          .values({ id: account.id, name: account.name, email: account.email, created_at: account.createdAt })
          .execute();
        await trx
          .insertInto('users')
          .values({
            id: user.id,
            account_id: user.accountId,
            email: user.email,
            password_hash: user.passwordHash,
            created_at: user.createdAt,
            language: user.language,
          })
          .execute();
        return 'created' as const;
      });
    } catch (error) {
      // Two sign-ups with one email at the same moment on PostgreSQL: both pass the check, the
      // unique index stops the second. Told apart from other failures without reading
      // driver-specific error codes: the email now exists.
      if (await this.findByEmail(user.email)) return 'email_taken';
      throw error;
    }
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.#db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row && toUser(row);
  }

  async setLanguage(userId: string, language: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ language })
      .where('id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/** Browser sessions in SQL, keyed by the SHA-256 of their token. */
export class SqlSessionRepository implements SessionRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async insert(session: SessionRecord): Promise<void> {
    await this.#db
      .insertInto('sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        csrf_token: session.csrfToken,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async find(tokenHash: string): Promise<{ session: SessionRecord; user: UserRecord } | undefined> {
    const row = await this.#db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.token_hash',
        'sessions.user_id',
        'sessions.csrf_token',
        'sessions.created_at as session_created_at',
        'sessions.expires_at',
        'users.id',
        'users.account_id',
        'users.email',
        'users.password_hash',
        'users.created_at',
        'users.language',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      session: toSession({ ...row, created_at: row.session_created_at }),
      user: toUser(row),
    };
  }

  async delete(tokenHash: string): Promise<void> {
    await this.#db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteExpired(now: string): Promise<number> {
    const result = await this.#db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** The studio's generations' fingerprints in SQL. */
export class SqlStudioAudioRepository implements StudioAudioRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async remember(accountId: string, digest: string, createdAt: string): Promise<void> {
    // The same audio made again (deterministic synthesis) starts its day again.
    await this.#db
      .insertInto('studio_audio')
      .values({ account_id: accountId, digest, created_at: createdAt })
      .onConflict((c) => c.columns(['account_id', 'digest']).doUpdateSet({ created_at: createdAt }))
      .execute();
  }

  async madeFor(accountId: string, digest: string, since: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('studio_audio')
      .select('digest')
      .where('account_id', '=', accountId)
      .where('digest', '=', digest)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  async forgetBefore(before: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('studio_audio')
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** The web repositories (sign-in, the studio's generations) over an open database's query builder. */
export function webRepositories(db: Kysely<Schema>): {
  users: UserRepository;
  sessions: SessionRepository;
  studioAudio: StudioAudioRepository;
} {
  return {
    users: new SqlUserRepository(db),
    sessions: new SqlSessionRepository(db),
    studioAudio: new SqlStudioAudioRepository(db),
  };
}
