import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

// Migrations live in code, not in files read at run time, so a bundled or copied build cannot lose
// them. Rules: never edit a migration that has shipped, add a new one; names sort in the order
// they run; only portable SQL (SQLite and PostgreSQL), no dialect-only column types.
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
};

const provider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};

/**
 * Brings the schema to the latest migration and throws (naming the migration) when one fails. With
 * the store's SQLite dialect the pending migrations run in one transaction, so a failure leaves
 * the schema as it was and a service never starts on a half-migrated database.
 */
export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed`, { cause: error });
  }
}
