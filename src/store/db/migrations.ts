import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

// Migrations live in code, not in files read at run time, so a bundled or copied build cannot lose
// them. Rules: never edit a migration that has shipped, add a new one; names sort in the order
// they run; only portable SQL (SQLite and PostgreSQL), no dialect-only column types. So far every
// type means the same in both (text, integer, bigint, double precision), so no migration branches
// on the dialect; one that must would take the dialect as an argument rather than sniff the driver.
// Times are ISO 8601 UTC text: portable, readable in both databases, and sortable as text.
const migrations: Record<string, Migration> = {
  '0001_accounts_keys_ledger': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text')
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

      await db.schema
        .createTable('ledger')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('tokens', 'integer', (c) => c.notNull())
        .addColumn('characters', 'integer')
        .addColumn('language', 'text')
        .addColumn('seconds', 'double precision')
        // Unique, so one request can never be charged twice, even by a retried commit.
        .addColumn('request_id', 'text', (c) => c.unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // Per-account sequence: a second writer that slipped past the account lock would collide
        // here instead of silently writing.
        .addUniqueConstraint('ledger_account_seq', ['account_id', 'seq'])
        // The sign of every entry is part of the schema, so no bug can write a negative top-up or a
        // free use that costs tokens.
        .addCheckConstraint(
          'ledger_kind_sign',
          sql`(kind = 'top_up' and tokens > 0) or (kind = 'charge' and tokens < 0) or (kind = 'free_use' and tokens = 0)`,
        )
        .execute();
    },
  },
  '0002_users_sessions': {
    async up(db: Kysely<unknown>): Promise<void> {
      // One user per account for now; unique on account_id so a second owner needs a migration,
      // not a silent duplicate. Emails are stored lower-cased, so a plain unique index suffices.
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().unique().references('accounts.id'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sessions')
        // The SHA-256 of the cookie's token, never the token.
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('csrf_token', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
    },
  },
  '0003_ledger_running_totals': {
    async up(db: Kysely<unknown>): Promise<void> {
      // Each entry carries the account's totals after it, so the balance is the newest entry's
      // (one index seek on (account_id, seq)) instead of a sum over the account's whole history.
      // bigint: many top-ups can take a balance past a 32-bit integer. SQLite adds a NOT NULL
      // column only with a default; the backfill below replaces it at once and every append
      // writes both. The checks make an overdraft or a negative count a schema error. SQLite
      // adds one column per statement.
      await db.schema
        .alterTable('ledger')
        .addColumn('balance_after', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`balance_after >= 0`))
        .execute();
      await db.schema
        .alterTable('ledger')
        .addColumn('free_uses_after', 'integer', (c) =>
          c.notNull().defaultTo(0).check(sql`free_uses_after >= 0`),
        )
        .execute();
      // Entries written before this migration: running sums per account in seq order ((account_id,
      // seq) is unique, so each row's frame ends at itself).
      await sql`
        update ledger
        set balance_after = totals.balance_after, free_uses_after = totals.free_uses_after
        from (
          select
            id,
            sum(tokens) over (partition by account_id order by seq) as balance_after,
            sum(case when kind = 'free_use' then 1 else 0 end)
              over (partition by account_id order by seq) as free_uses_after
          from ledger
        ) as totals
        where ledger.id = totals.id`.execute(db);
    },
  },
  '0004_ledger_refunds': {
    async up(db: Kysely<unknown>): Promise<void> {
      // Refunds: `refund` (a charge's tokens back) and `free_use_refund` (a free generation back),
      // each carrying the refunded request's id. That needs two new kinds in the sign check and a
      // request id on two entries, where 0001 made it unique outright. SQLite changes neither a
      // check nor a column's uniqueness in place, so the table is rebuilt the portable way. The
      // rename comes first: on PostgreSQL it locks the old table at once, so an older instance's
      // charge waits for the migration and then lands in the new table, never in the copied one.
      // Names that index-backed constraints share across a PostgreSQL schema are created only
      // once the old table (and its indexes) is dropped.
      await db.schema.alterTable('ledger').renameTo('ledger_0003').execute();
      await db.schema
        .createTable('ledger')
        // Unnamed, so PostgreSQL picks a name the old table's primary key does not hold.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('tokens', 'integer', (c) => c.notNull())
        .addColumn('characters', 'integer')
        .addColumn('language', 'text')
        .addColumn('seconds', 'double precision')
        .addColumn('request_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull().check(sql`balance_after >= 0`))
        .addColumn('free_uses_after', 'integer', (c) => c.notNull().check(sql`free_uses_after >= 0`))
        // As in 0001, plus refunds: they give back (tokens > 0, or a free use at 0 tokens) and
        // always name the request they reverse.
        .addCheckConstraint(
          'ledger_kind_sign',
          sql`(kind = 'top_up' and tokens > 0) or (kind = 'charge' and tokens < 0) or (kind = 'free_use' and tokens = 0)
            or (kind = 'refund' and tokens > 0 and request_id is not null)
            or (kind = 'free_use_refund' and tokens = 0 and request_id is not null)`,
        )
        .execute();
      await sql`
        insert into ledger (id, account_id, seq, kind, tokens, characters, language, seconds,
          request_id, created_at, balance_after, free_uses_after)
        select id, account_id, seq, kind, tokens, characters, language, seconds,
          request_id, created_at, balance_after, free_uses_after
        from ledger_0003`.execute(db);
      await db.schema.dropTable('ledger_0003').execute();
      // Per-account sequence, as in 0001: a writer that slipped past the account lock collides.
      await db.schema
        .createIndex('ledger_account_seq')
        .on('ledger')
        .columns(['account_id', 'seq'])
        .unique()
        .execute();
      // One request is charged at most once and refunded at most once, even by a retried commit.
      await db.schema
        .createIndex('ledger_request_charged')
        .on('ledger')
        .column('request_id')
        .unique()
        .where(sql<boolean>`kind in ('charge', 'free_use')`)
        .execute();
      await db.schema
        .createIndex('ledger_request_refunded')
        .on('ledger')
        .column('request_id')
        .unique()
        .where(sql<boolean>`kind in ('refund', 'free_use_refund')`)
        .execute();
      // Look-ups by request (is it charged, what to refund): the partial indexes above serve only
      // queries that repeat their conditions.
      await db.schema.createIndex('ledger_request').on('ledger').column('request_id').execute();
    },
  },
  '0005_lexicons': {
    async up(db: Kysely<unknown>): Promise<void> {
      // Bumped by every change to the account's lexicon, so a cached copy is checked with one read.
      await db.schema
        .alterTable('accounts')
        .addColumn('lexicon_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('lexicon_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('phrase', 'text', (c) => c.notNull())
        // The phrase folded for matching (lower case, NFC): one entry per phrase and language.
        .addColumn('phrase_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('respelling', 'ipa')`))
        .addColumn('says', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('lexicon_entries_phrase', ['account_id', 'language', 'phrase_key'])
        .execute();
    },
  },
  '0006_topup_requests': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('topup_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('tokens', 'integer', (c) => c.notNull().check(sql`tokens >= 289`))
        // What the customer quotes with the payment: short, unique, easy to read out.
        .addColumn('reference', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'approved', 'declined')`),
        )
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema
        .createIndex('topup_requests_account')
        .on('topup_requests')
        .column('account_id')
        .execute();
      await db.schema.createIndex('topup_requests_status').on('topup_requests').column('status').execute();
      // A top-up request is credited at most once, whatever retries or races happen.
      await db.schema
        .createIndex('ledger_request_topped_up')
        .on('ledger')
        .column('request_id')
        .unique()
        .where(sql<boolean>`kind = 'top_up'`)
        .execute();
    },
  },
  '0007_lexicon_word_language': {
    async up(db: Kysely<unknown>): Promise<void> {
      // The language a respelling's words are said as; null (every entry before) leaves it to the
      // automatic decision. An IPA entry never has one: the service refuses it.
      await db.schema
        .alterTable('lexicon_entries')
        .addColumn('word_language', 'text', (c) => c.check(sql`word_language in ('rw', 'en', 'fr')`))
        .execute();
    },
  },
  '0008_user_language': {
    async up(db: Kysely<unknown>): Promise<void> {
      // The website's language the user chose, kept with them so every browser they sign in
      // from shows it. Nullable: nobody has chosen yet, and the browser's own choice applies.
      await db.schema.alterTable('users').addColumn('language', 'text').execute();
    },
  },
  '0009_studio_audio': {
    async up(db: Kysely<unknown>): Promise<void> {
      // The fingerprints of the studio's generations (see accounts/studio-audio.ts): a download in
      // another format is encoded only when its audio is one of them. Kept a day.
      await db.schema
        .createTable('studio_audio')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('studio_audio_pk', ['account_id', 'digest'])
        .execute();
      await db.schema.createIndex('studio_audio_created').on('studio_audio').column('created_at').execute();
    },
  },
  '0010_pronunciation_dictionaries': {
    async up(db: Kysely<unknown>): Promise<void> {
      // Named, versioned pronunciation dictionaries per account. An entry row lives from the
      // version that added it (`added_in`) until the one that removed or replaced it
      // (`removed_in`, null while current), so any kept version is one indexed read and a change
      // writes only what it changes. `first_version`: the oldest version still selectable.
      await db.schema
        .createTable('pronunciation_dictionaries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('first_version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('pronunciation_dictionaries_account')
        .on('pronunciation_dictionaries')
        .column('account_id')
        .execute();
      await db.schema
        .createTable('pronunciation_entries')
        // An entry keeps its id when it is edited: the edit is a new row of the same id.
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('dictionary_id', 'text', (c) => c.notNull().references('pronunciation_dictionaries.id'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('phrase', 'text', (c) => c.notNull())
        .addColumn('phrase_key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('respelling', 'ipa')`))
        .addColumn('says', 'text', (c) => c.notNull())
        .addColumn('word_language', 'text', (c) => c.check(sql`word_language in ('rw', 'en', 'fr')`))
        .addColumn('added_in', 'integer', (c) => c.notNull())
        .addColumn('removed_in', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        // The order of entries written together, as their request gave them.
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('pronunciation_entries_pk', ['id', 'added_in'])
        .execute();
      await db.schema
        .createIndex('pronunciation_entries_dictionary')
        .on('pronunciation_entries')
        .columns(['dictionary_id', 'added_in'])
        .execute();
      // One current entry per phrase and language in a dictionary, whatever races happen.
      await db.schema
        .createIndex('pronunciation_entries_current_phrase')
        .on('pronunciation_entries')
        .columns(['dictionary_id', 'language', 'phrase_key'])
        .unique()
        .where(sql<boolean>`removed_in is null`)
        .execute();
      // Each account's lexicon becomes its default dictionary, whose id is the account's with the
      // dictionary prefix (see `defaultDictionaryId`), at the lexicon's version. The old table and
      // column stay, no longer read, so the release before this one still starts on this database.
      await sql`insert into pronunciation_dictionaries
          (id, account_id, name, version, first_version, created_at, updated_at)
        select 'dict_' || substr(a.id, 6), a.id, 'default', a.lexicon_version, a.lexicon_version,
          a.created_at, a.created_at
        from accounts a
        where exists (select 1 from lexicon_entries e where e.account_id = a.id)`.execute(db);
      await sql`insert into pronunciation_entries
          (id, dictionary_id, language, phrase, phrase_key, kind, says, word_language, added_in,
           removed_in, created_at)
        select e.id, 'dict_' || substr(e.account_id, 6), e.language, e.phrase, e.phrase_key, e.kind,
          e.says, e.word_language, a.lexicon_version, null, e.created_at
        from lexicon_entries e join accounts a on a.id = e.account_id`.execute(db);
    },
  },
  '0011_play_urls': {
    async up(db: Kysely<unknown>): Promise<void> {
      // Playable URLs (calls/play-urls.ts): the request is kept here, not in the URL, so the URL
      // carries no text; any instance can speak it or serve its stored audio. `state` moves
      // new -> speaking -> ready (or failed), one claim at a time.
      await db.schema
        .createTable('play_urls')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('file_id', 'text')
        .addColumn('claimed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addCheckConstraint('play_urls_state', sql`state in ('new', 'speaking', 'ready', 'failed')`)
        .execute();
      await db.schema
        .createIndex('play_urls_account_expiry')
        .on('play_urls')
        .columns(['account_id', 'expires_at'])
        .execute();
      await db.schema.createIndex('play_urls_expiry').on('play_urls').column('expires_at').execute();
      // The key the URLs are signed with when the operator configures none: made once by the
      // first instance, read by every other, so all of them check each other's URLs.
      // One row per use (`purpose`, the primary key), so instances racing to make it keep one.
      await db.schema
        .createTable('play_url_keys')
        .addColumn('purpose', 'text', (c) => c.primaryKey())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
};

/** Every migration's name, in the order they run. */
export const migrationNames: readonly string[] = Object.keys(migrations).sort();

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/** Options for `migrateToLatest`. */
export interface MigrateOptions {
  /**
   * PostgreSQL: the schema the tables are created in (the connection's current schema). kysely
   * looks for its bookkeeping table in every schema unless told which, and would take another
   * schema's (a second database user, another application) for ours.
   */
  readonly schema?: string;
}

/**
 * Brings the schema to the latest migration and throws (naming the migration) when one fails. On
 * both databases the pending migrations run in one transaction under a lock (SQLite: the store's
 * immediate transaction; PostgreSQL: kysely's advisory lock), so a failure leaves the schema as it
 * was, a service never starts on a half-migrated database, and instances starting together
 * migrate once.
 */
export async function migrateToLatest(db: Kysely<unknown>, options: MigrateOptions = {}): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    // The names start with a zero-padded number, so code-unit order is their order, as the
    // provider's keys are sorted; kysely's default comparison (`localeCompare`) would make the
    // process read ICU's collation data for it, about 1.6 MB resident for the process's life.
    nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed`, { cause: error });
  }
}
