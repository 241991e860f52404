import type { Kysely, Selectable } from 'kysely';
import type { PlayFormat, PlaySettlement, PlayUrlRecord, PlayUrlRepository } from '../../calls/play-urls.ts';
import type { PlayUrlsTable, Schema } from './schema.ts';

function toRecord(row: Selectable<PlayUrlsTable>): PlayUrlRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    input: row.input,
    reading: JSON.parse(row.options) as PlayUrlRecord['reading'],
    format: row.format,
    state: row.state,
    fileId: row.file_id,
    claimedAt: row.claimed_at,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/**
 * Playable URLs in SQL. A URL is created in a transaction that first locks its account row
 * (PostgreSQL; SQLite's immediate transactions are serial already), so two creations at once
 * cannot both take an account's last place; its first fetch is taken by one conditional update.
 */
export class SqlPlayUrlRepository implements PlayUrlRepository {
  readonly #db: Kysely<Schema>;
  readonly #rowLocks: boolean;

  constructor(db: Kysely<Schema>, options: { rowLocks: boolean }) {
    this.#db = db;
    this.#rowLocks = options.rowLocks;
  }

  create(record: PlayUrlRecord, maxLive: number, now: string): Promise<'created' | 'full'> {
    return this.#db.transaction().execute(async (trx) => {
      const account = trx.selectFrom('accounts').select('id').where('id', '=', record.accountId);
      await (this.#rowLocks ? account.forUpdate() : account).executeTakeFirst();
      const live = await trx
        .selectFrom('play_urls')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('account_id', '=', record.accountId)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      if (Number(live.count) >= maxLive) return 'full' as const;
      await trx
        .insertInto('play_urls')
        .values({
          id: record.id,
          account_id: record.accountId,
          input: record.input,
          options: JSON.stringify(record.reading),
          format: record.format,
          state: record.state,
          file_id: record.fileId,
          claimed_at: record.claimedAt,
          created_at: record.createdAt,
          expires_at: record.expiresAt,
        })
        .execute();
      return 'created' as const;
    });
  }

  async find(id: string): Promise<PlayUrlRecord | undefined> {
    const row = await this.#db.selectFrom('play_urls').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async claim(id: string, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('play_urls')
      .set({ state: 'speaking', claimed_at: now })
      .where('id', '=', id)
      .where('state', '=', 'new')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async settle(id: string, outcome: PlaySettlement): Promise<void> {
    await this.#db
      .updateTable('play_urls')
      .set({
        state: outcome.state,
        file_id: outcome.state === 'ready' ? outcome.fileId : null,
        claimed_at: null,
      })
      .where('id', '=', id)
      .where('state', '=', 'speaking')
      .execute();
  }

  async removeExpired(now: string): Promise<readonly { fileId: string; format: PlayFormat }[]> {
    const expired = await this.#db
      .deleteFrom('play_urls')
      .where('expires_at', '<=', now)
      .returning(['file_id', 'format'])
      .execute();
    return expired.flatMap((row) =>
      row.file_id === null ? [] : [{ fileId: row.file_id, format: row.format }],
    );
  }

  async signingKey(
    fresh: { id: string; secret: string },
    now: string,
  ): Promise<{ id: string; secret: string }> {
    await this.#db
      .insertInto('play_url_keys')
      .values({ purpose: 'sign', key_id: fresh.id, secret: fresh.secret, created_at: now })
      .onConflict((c) => c.column('purpose').doNothing())
      .execute();
    const key = await this.#db
      .selectFrom('play_url_keys')
      .select(['key_id', 'secret'])
      .where('purpose', '=', 'sign')
      .executeTakeFirstOrThrow();
    return { id: key.key_id, secret: key.secret };
  }
}
