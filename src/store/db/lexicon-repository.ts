import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  LexiconEntry,
  LexiconRepository,
  LexiconWrite,
  NewLexiconEntry,
} from '../../accounts/lexicon-repository.ts';
import { phraseKey } from '../../speech/text/lexicon.ts';
import type { LexiconEntriesTable, Schema } from './schema.ts';

function toEntry(row: Selectable<LexiconEntriesTable>): LexiconEntry {
  return {
    id: row.id,
    accountId: row.account_id,
    language: row.language,
    phrase: row.phrase,
    kind: row.kind,
    says: row.says,
    wordLanguage: row.word_language,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Lexicons in SQL. Each change runs in a transaction that first locks the account row (PostgreSQL;
 * SQLite's transactions are serial already), checks the limit and the phrase, writes, and bumps the
 * account's lexicon version, so concurrent changes can neither pass the limit nor be missed by a cache.
 */
export class SqlLexiconRepository implements LexiconRepository {
  readonly #db: Kysely<Schema>;
  readonly #rowLocks: boolean;

  constructor(db: Kysely<Schema>, options: { rowLocks: boolean }) {
    this.#db = db;
    this.#rowLocks = options.rowLocks;
  }

  async version(accountId: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('accounts')
      .select('lexicon_version')
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.lexicon_version);
  }

  async list(accountId: string): Promise<LexiconEntry[]> {
    const rows = await this.#db
      .selectFrom('lexicon_entries')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toEntry);
  }

  add(entry: NewLexiconEntry, maxEntries: number): Promise<LexiconWrite> {
    return this.#change(entry.accountId, async (trx) => {
      const count = await trx
        .selectFrom('lexicon_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', entry.accountId)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= maxEntries) return 'full';
      if (await this.#taken(trx, entry.accountId, entry.language, entry.phrase, undefined))
        return 'duplicate';
      await trx
        .insertInto('lexicon_entries')
        .values({
          id: entry.id,
          account_id: entry.accountId,
          language: entry.language,
          phrase: entry.phrase,
          phrase_key: phraseKey(entry.phrase),
          kind: entry.kind,
          says: entry.says,
          word_language: entry.wordLanguage,
          created_at: entry.createdAt,
          updated_at: entry.createdAt,
        })
        .execute();
      return 'ok';
    });
  }

  update(
    accountId: string,
    id: string,
    change: Pick<LexiconEntry, 'phrase' | 'kind' | 'says' | 'wordLanguage' | 'updatedAt'>,
  ): Promise<LexiconWrite> {
    return this.#change(accountId, async (trx) => {
      const current = await trx
        .selectFrom('lexicon_entries')
        .select('language')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (current === undefined) return 'not_found';
      if (await this.#taken(trx, accountId, current.language, change.phrase, id)) return 'duplicate';
      await trx
        .updateTable('lexicon_entries')
        .set({
          phrase: change.phrase,
          phrase_key: phraseKey(change.phrase),
          kind: change.kind,
          says: change.says,
          word_language: change.wordLanguage,
          updated_at: change.updatedAt,
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .execute();
      return 'ok';
    });
  }

  remove(accountId: string, id: string): Promise<LexiconWrite> {
    return this.#change(accountId, async (trx) => {
      const result = await trx
        .deleteFrom('lexicon_entries')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? 'ok' : 'not_found';
    });
  }

  async #taken(
    trx: Transaction<Schema>,
    accountId: string,
    language: string,
    phrase: string,
    exceptId: string | undefined,
  ): Promise<boolean> {
    let query = trx
      .selectFrom('lexicon_entries')
      .select('id')
      .where('account_id', '=', accountId)
      .where('language', '=', language)
      .where('phrase_key', '=', phraseKey(phrase));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Runs `work` with the account locked; bumps the lexicon version when it changed something. */
  #change(
    accountId: string,
    work: (trx: Transaction<Schema>) => Promise<LexiconWrite>,
  ): Promise<LexiconWrite> {
    return this.#db.transaction().execute(async (trx) => {
      const query = trx.selectFrom('accounts').select('id').where('id', '=', accountId);
      if ((await (this.#rowLocks ? query.forUpdate() : query).executeTakeFirst()) === undefined)
        return 'not_found';
      const result = await work(trx);
      if (result === 'ok') {
        await trx
          .updateTable('accounts')
          .set((eb) => ({ lexicon_version: eb('lexicon_version', '+', 1) }))
          .where('id', '=', accountId)
          .execute();
      }
      return result;
    });
  }
}
