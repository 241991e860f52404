import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { AccountService } from '../../src/accounts/accounts.ts';
import {
  DictionaryService,
  KEPT_VERSIONS,
  MAX_DICTIONARIES,
  MAX_SELECTED_DICTIONARIES,
} from '../../src/accounts/dictionaries.ts';
import { plainDocument } from '../../src/speech/input/document.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// The dictionaries' limits and versions on every database: the oldest versions dropped past the
// kept ones (and their rows with them), at most 50 dictionaries however many are made at once,
// and a change on one instance spoken by another at its next request.

describeEachDatabase('pronunciation dictionaries', (context) => {
  let dictionaries: DictionaryService;
  let accounts: AccountService;

  before(() => {
    dictionaries = new DictionaryService(context.db.dictionaries);
    accounts = new AccountService(context.db);
  });

  async function newAccount(): Promise<string> {
    const result = await accounts.createAccount({ name: 'Dictionary Test' });
    assert.ok(result.ok);
    return result.account.id;
  }

  const entry = (phrase: string, says: string) => ({ language: 'en', phrase, kind: 'respelling', says });
  const said = async (service: DictionaryService, accountId: string, id: string, version?: number) => {
    const choice = await service.lexiconFor(accountId, 'en', [{ id, version }]);
    if (!choice.ok) return choice.part;
    const [segment] = choice.lexicon.apply(plainDocument('Mugabo')).segments;
    return segment?.kind === 'text' ? segment.text : '';
  };

  it(`keeps the last ${KEPT_VERSIONS} versions, and drops the rows only older ones held`, async () => {
    const accountId = await newAccount();
    const created = await dictionaries.create(accountId, { name: 'Busy', entries: [entry('Mugabo', 'v1')] });
    assert.ok(created.ok);
    const { id } = created.dictionary;
    for (let v = 2; v <= KEPT_VERSIONS + 5; v++) {
      const replaced = await dictionaries.replace(accountId, id, { entries: [entry('Mugabo', `v${v}`)] });
      assert.ok(replaced.ok && replaced.dictionary.version === v);
    }
    const last = KEPT_VERSIONS + 5;
    const first = last - KEPT_VERSIONS + 1;
    assert.equal(await said(dictionaries, accountId, id), `v${last}`);
    assert.equal(await said(dictionaries, accountId, id, first), `v${first}`);
    assert.equal(await said(dictionaries, accountId, id, first - 1), 'version', 'no longer kept');
    const read = await dictionaries.read(accountId, id, first - 1);
    assert.ok(!read.ok && read.code === 'not_found');
    const rows = await context.db.kysely
      .selectFrom('pronunciation_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('dictionary_id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(rows.n), KEPT_VERSIONS, 'one row per kept version, none older');
  });

  it(`keeps at most ${MAX_DICTIONARIES} dictionaries per account, the default included, however many are made at once`, async () => {
    const accountId = await newAccount();
    const made = await Promise.all(
      Array.from({ length: MAX_DICTIONARIES + 5 }, (_, i) =>
        dictionaries.create(accountId, { name: `d${i}`, entries: [] }),
      ),
    );
    assert.equal(made.filter((r) => r.ok).length, MAX_DICTIONARIES - 1);
    assert.ok(made.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'too_many'));
    assert.equal((await dictionaries.dictionaries(accountId)).length, MAX_DICTIONARIES);
  });

  it('speaks a change made on one instance from the next request on another, and never another account’s', async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const elsewhere = new DictionaryService(context.db.dictionaries);
    const created = await dictionaries.create(a, {
      name: 'Shared',
      entries: [entry('Mugabo', 'moo gah boh')],
    });
    assert.ok(created.ok);
    const { id } = created.dictionary;
    assert.equal(await said(elsewhere, a, id), 'moo gah boh');
    assert.ok((await dictionaries.replace(a, id, { entries: [entry('Mugabo', 'mew gay bow')] })).ok);
    assert.equal(await said(elsewhere, a, id), 'mew gay bow', 'the other instance sees the new version');
    assert.equal(await said(elsewhere, b, id), 'id', 'another account gets not found');
    const many = Array.from({ length: MAX_SELECTED_DICTIONARIES }, () => ({ id }));
    assert.ok((await elsewhere.lexiconFor(a, 'en', many)).ok);
  });
});
