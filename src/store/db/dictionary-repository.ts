import type { Kysely, Selectable, Transaction } from 'kysely';
import {
  type DictionaryChange,
  type DictionaryLimits,
  type DictionaryRecord,
  type DictionaryRepository,
  type DictionaryWrite,
  defaultDictionaryId,
  type LexiconEntry,
} from '../../accounts/dictionary-repository.ts';
import { phraseKey } from '../../speech/text/lexicon.ts';
import type { LanguageCode } from '../../speech/text/verbalizer.ts';
import { prepared } from './prepared-query.ts';
import type { PronunciationDictionariesTable, PronunciationEntriesTable, Schema } from './schema.ts';

type Refused = Extract<DictionaryWrite, { ok: false }>;

/** The versions of an account's dictionaries, before the ids are chosen. */
const versionsOf = (db: Kysely<Schema>, accountId: string) =>
  db
    .selectFrom('pronunciation_dictionaries')
    .select(['id', 'version', 'first_version'])
    .where('account_id', '=', accountId);

/** Thrown inside a change's transaction to roll it back with a refusal. */
class Refusal extends Error {
  constructor(readonly refused: Refused) {
    super(refused.code);
  }
}

function toRecord(row: Selectable<PronunciationDictionariesTable>, entryCount: number): DictionaryRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    version: Number(row.version),
    firstVersion: Number(row.first_version),
    entryCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toEntry(row: Selectable<PronunciationEntriesTable>): LexiconEntry {
  return {
    id: row.id,
    language: row.language as LanguageCode,
    phrase: row.phrase,
    kind: row.kind,
    says: row.says,
    wordLanguage: row.word_language,
    createdAt: row.created_at,
  };
}

/**
 * Pronunciation dictionaries in SQL. Each change runs in a transaction that first locks the account
 * row (PostgreSQL; SQLite's transactions are serial already), so the limits hold under concurrent
 * changes; an entry row is never rewritten, only closed by the version that removes it.
 */
export class SqlDictionaryRepository implements DictionaryRepository {
  readonly #db: Kysely<Schema>;
  readonly #rowLocks: boolean;

  // Every call's look-up of the one dictionary it speaks with (prepared-query.ts); a list of
  // several, which a prepared query cannot bind, is built each time.
  readonly #versionOf = prepared((db, { accountId, id }: { accountId: string; id: string }) =>
    versionsOf(db, accountId).where('id', '=', id),
  );

  constructor(db: Kysely<Schema>, options: { rowLocks: boolean }) {
    this.#db = db;
    this.#rowLocks = options.rowLocks;
  }

  async list(accountId: string): Promise<DictionaryRecord[]> {
    const rows = await this.#db
      .selectFrom('pronunciation_dictionaries as d')
      .selectAll('d')
      .select((eb) =>
        eb
          .selectFrom('pronunciation_entries as e')
          .select((c) => c.fn.countAll().as('n'))
          .whereRef('e.dictionary_id', '=', 'd.id')
          .where('e.removed_in', 'is', null)
          .as('entry_count'),
      )
      .where('d.account_id', '=', accountId)
      .orderBy('d.created_at')
      .orderBy('d.id')
      .execute();
    return rows.map((row) => toRecord(row, Number(row.entry_count ?? 0)));
  }

  async versions(
    accountId: string,
    ids: readonly string[],
  ): Promise<Map<string, { version: number; firstVersion: number }>> {
    if (ids.length === 0) return new Map();
    const [only] = ids;
    const rows =
      ids.length === 1 && only !== undefined
        ? (await this.#versionOf(this.#db, { accountId, id: only })).rows
        : await versionsOf(this.#db, accountId).where('id', 'in', ids).execute();
    return new Map(
      rows.map((r) => [r.id, { version: Number(r.version), firstVersion: Number(r.first_version) }]),
    );
  }

  async entries(dictionaryId: string, version: number): Promise<LexiconEntry[]> {
    const rows = await this.#db
      .selectFrom('pronunciation_entries')
      .selectAll()
      .where('dictionary_id', '=', dictionaryId)
      .where('added_in', '<=', version)
      .where((eb) => eb.or([eb('removed_in', 'is', null), eb('removed_in', '>', version)]))
      .orderBy('created_at')
      .orderBy('position')
      .orderBy('id')
      .execute();
    return rows.map(toEntry);
  }

  create(
    dictionary: { id: string; accountId: string; name: string; at: string },
    entries: readonly LexiconEntry[],
    limits: DictionaryLimits,
  ): Promise<DictionaryWrite> {
    return this.#locked(dictionary.accountId, async (trx) => {
      const ids = await trx
        .selectFrom('pronunciation_dictionaries')
        .select('id')
        .where('account_id', '=', dictionary.accountId)
        .execute();
      // The default dictionary counts whether or not it has been written yet.
      const defaultId = defaultDictionaryId(dictionary.accountId);
      const held = ids.length + (ids.some((r) => r.id === defaultId) ? 0 : 1);
      if (held >= limits.maxDictionaries) throw new Refusal({ ok: false, code: 'too_many' });
      if (entries.length > limits.maxEntries) throw new Refusal({ ok: false, code: 'full' });
      const row = {
        id: dictionary.id,
        account_id: dictionary.accountId,
        name: dictionary.name,
        version: 1,
        first_version: 1,
        created_at: dictionary.at,
        updated_at: dictionary.at,
      };
      await trx.insertInto('pronunciation_dictionaries').values(row).execute();
      await this.#insert(trx, dictionary.id, entries, 1);
      return { ok: true, dictionary: toRecord(row, entries.length) };
    });
  }

  change(
    accountId: string,
    id: string,
    change: DictionaryChange,
    limits: DictionaryLimits,
  ): Promise<DictionaryWrite> {
    return this.#locked(accountId, async (trx) => {
      let row = await trx
        .selectFrom('pronunciation_dictionaries')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined && id === defaultDictionaryId(accountId)) {
        row = {
          id,
          account_id: accountId,
          name: 'default',
          version: 0,
          first_version: 0,
          created_at: change.at,
          updated_at: change.at,
        };
        await trx.insertInto('pronunciation_dictionaries').values(row).execute();
      }
      if (row === undefined) throw new Refusal({ ok: false, code: 'not_found' });
      const version = Number(row.version) + 1;
      const current = trx
        .updateTable('pronunciation_entries')
        .set({ removed_in: version })
        .where('dictionary_id', '=', id)
        .where('removed_in', 'is', null);
      if (change.removeAll) await current.execute();
      if (change.removeLanguage !== undefined)
        await current.where('language', '=', change.removeLanguage).execute();
      for (const entryId of change.removeIds ?? []) {
        const done = await current.where('id', '=', entryId).executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new Refusal({ ok: false, code: 'not_found' });
      }
      for (const phrase of change.removePhrases ?? []) {
        const done = await current
          .where('language', '=', phrase.language)
          .where('phrase_key', '=', phrase.phraseKey)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new Refusal({ ok: false, code: 'not_found' });
      }
      const added = change.add ?? [];
      for (const entry of added) {
        const taken = await trx
          .selectFrom('pronunciation_entries')
          .select('id')
          .where('dictionary_id', '=', id)
          .where('removed_in', 'is', null)
          .where('language', '=', entry.language)
          .where('phrase_key', '=', phraseKey(entry.phrase))
          .executeTakeFirst();
        if (taken !== undefined) throw new Refusal({ ok: false, code: 'duplicate', phrase: entry.phrase });
      }
      await this.#insert(trx, id, added, version);
      const count = await trx
        .selectFrom('pronunciation_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('dictionary_id', '=', id)
        .where('removed_in', 'is', null)
        .executeTakeFirstOrThrow();
      const entryCount = Number(count.n);
      if (added.length > 0 && entryCount > limits.maxEntries) throw new Refusal({ ok: false, code: 'full' });
      const firstVersion = Math.max(Number(row.first_version), version - limits.keptVersions + 1);
      const updated = {
        ...row,
        name: change.name ?? row.name,
        version,
        first_version: firstVersion,
        updated_at: change.at,
      };
      await trx
        .updateTable('pronunciation_dictionaries')
        .set({ name: updated.name, version, first_version: firstVersion, updated_at: change.at })
        .where('id', '=', id)
        .execute();
      // Entries no kept version holds.
      await trx
        .deleteFrom('pronunciation_entries')
        .where('dictionary_id', '=', id)
        .where('removed_in', '<=', firstVersion)
        .execute();
      return { ok: true, dictionary: toRecord(updated, entryCount) };
    });
  }

  async remove(accountId: string, id: string): Promise<boolean> {
    const result = await this.#locked(accountId, async (trx) => {
      const row = await trx
        .selectFrom('pronunciation_dictionaries')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) throw new Refusal({ ok: false, code: 'not_found' });
      await trx.deleteFrom('pronunciation_entries').where('dictionary_id', '=', id).execute();
      await trx.deleteFrom('pronunciation_dictionaries').where('id', '=', id).execute();
      return { ok: true, dictionary: toRecord(row, 0) };
    });
    return result.ok;
  }

  async #insert(
    trx: Transaction<Schema>,
    dictionaryId: string,
    entries: readonly LexiconEntry[],
    version: number,
  ): Promise<void> {
    // In slices, under SQLite's and PostgreSQL's limits on bound parameters per statement.
    for (let i = 0; i < entries.length; i += 200) {
      await trx
        .insertInto('pronunciation_entries')
        .values(
          entries.slice(i, i + 200).map((e, j) => ({
            position: i + j,
            id: e.id,
            dictionary_id: dictionaryId,
            language: e.language,
            phrase: e.phrase,
            phrase_key: phraseKey(e.phrase),
            kind: e.kind,
            says: e.says,
            word_language: e.wordLanguage,
            added_in: version,
            removed_in: null,
            created_at: e.createdAt,
          })),
        )
        .execute();
    }
  }

  /** Runs `work` with the account locked; a `Refusal` rolls it back and is returned. */
  async #locked(
    accountId: string,
    work: (trx: Transaction<Schema>) => Promise<DictionaryWrite>,
  ): Promise<DictionaryWrite> {
    try {
      return await this.#db.transaction().execute(async (trx) => {
        const query = trx.selectFrom('accounts').select('id').where('id', '=', accountId);
        if ((await (this.#rowLocks ? query.forUpdate() : query).executeTakeFirst()) === undefined)
          throw new Refusal({ ok: false, code: 'not_found' });
        return work(trx);
      });
    } catch (error) {
      if (error instanceof Refusal) return error.refused;
      throw error;
    }
  }
}
