import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { AccountService } from '../../src/accounts/accounts.ts';
import { DictionaryService, MAX_DICTIONARY_ENTRIES } from '../../src/accounts/dictionaries.ts';
import { plainDocument } from '../../src/speech/input/document.ts';
import type { LanguageCode } from '../../src/speech/text/verbalizer.ts';
import { markWords } from '../../src/speech/text/word-language/marks.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// Each account's lexicon (its default dictionary), on every database: checked entries, the 1,000 limit under concurrency,
// no account sees another's, and a change made through one instance reaches every other.

describeEachDatabase('lexicons', (context) => {
  let lexicons: DictionaryService;
  let accounts: AccountService;

  before(() => {
    lexicons = new DictionaryService(context.db.dictionaries);
    accounts = new AccountService(context.db);
  });

  async function newAccount(): Promise<string> {
    const result = await accounts.createAccount({ name: 'Lexicon Test' });
    assert.ok(result.ok);
    return result.account.id;
  }

  const said = async (
    service: DictionaryService,
    accountId: string,
    language: LanguageCode,
    text: string,
  ) => {
    const choice = await service.lexiconFor(accountId, language);
    assert.ok(choice.ok);
    const document = choice.lexicon.apply(plainDocument(text));
    return document.segments
      .map((s) => (s.kind === 'text' ? s.text : s.kind === 'phonemes' ? `/${s.ipa}/` : ''))
      .join('');
  };

  it('adds, lists, edits and removes entries', async () => {
    const accountId = await newAccount();
    assert.deepEqual(
      await lexicons.add(accountId, {
        language: 'en',
        phrase: 'Uwase',
        kind: 'respelling',
        says: 'oo wah seh',
      }),
      { ok: true },
    );
    const [entry] = await lexicons.list(accountId);
    assert.equal(entry?.phrase, 'Uwase');
    assert.equal(await said(lexicons, accountId, 'en', 'Ask Uwase.'), 'Ask oo wah seh.');
    assert.ok(
      (
        await lexicons.update(accountId, entry?.id ?? '', {
          language: 'en',
          phrase: 'Uwase',
          kind: 'respelling',
          says: 'oo wa say',
        })
      ).ok,
    );
    assert.equal(await said(lexicons, accountId, 'en', 'Ask Uwase.'), 'Ask oo wa say.');
    assert.ok((await lexicons.remove(accountId, entry?.id ?? '')).ok);
    assert.equal(await said(lexicons, accountId, 'en', 'Ask Uwase.'), 'Ask Uwase.');
    assert.equal((await lexicons.remove(accountId, entry?.id ?? '')).ok, false);
  });

  it('refuses what it cannot store or say, naming the field', async () => {
    const accountId = await newAccount();
    const refused = async (input: Parameters<DictionaryService['add']>[1], field: string) => {
      const result = await lexicons.add(accountId, input);
      assert.ok(
        !result.ok && result.code === 'invalid_entry' && result.field === field,
        JSON.stringify(result),
      );
    };
    await refused({ language: 'xx', phrase: 'a', kind: 'respelling', says: 'b' }, 'language');
    await refused({ language: 'en', phrase: '', kind: 'respelling', says: 'b' }, 'phrase');
    await refused({ language: 'en', phrase: 'a'.repeat(101), kind: 'respelling', says: 'b' }, 'phrase');
    await refused({ language: 'en', phrase: 'ok', kind: 'respelling', says: 'bad\u0000' }, 'says');
    await refused({ language: 'en', phrase: 'ok', kind: 'ssml', says: 'b' }, 'kind');
    await refused({ language: 'fr', phrase: 'ok', kind: 'ipa', says: 'ʘ' }, 'says');
    assert.ok(
      (await lexicons.add(accountId, { language: 'fr', phrase: 'Nyanza', kind: 'ipa', says: 'ɲanza' })).ok,
    );
    const twice = await lexicons.add(accountId, {
      language: 'fr',
      phrase: 'NYANZA',
      kind: 'respelling',
      says: 'nianza',
    });
    assert.ok(!twice.ok && twice.code === 'duplicate');
  });

  it('keeps, lists and changes the language of an entry’s word, null when it names none', async () => {
    const accountId = await newAccount();
    const entry = (phrase: string, says: string, wordLanguage?: string) =>
      lexicons.add(accountId, { language: 'en', phrase, kind: 'respelling', says, wordLanguage });
    assert.ok((await entry('Uwimana', 'Uwimana', 'rw')).ok, 'the respelling may be the phrase itself');
    assert.ok((await entry('Gisozi', 'Gee so zee')).ok);
    assert.ok((await entry('Nyanza', 'Nyanza', '')).ok, 'empty is none');
    const languages = async () =>
      Object.fromEntries((await lexicons.list(accountId)).map((e) => [e.phrase, e.wordLanguage]));
    assert.deepEqual(await languages(), { Uwimana: 'rw', Gisozi: null, Nyanza: null });
    assert.equal(await said(lexicons, accountId, 'en', 'Ask Uwimana.'), `Ask ${markWords('Uwimana', 'rw')}.`);
    const update = async (phrase: string, says: string, wordLanguage?: string) => {
      const id = (await lexicons.list(accountId)).find((e) => e.phrase === phrase)?.id ?? '';
      return lexicons.update(accountId, id, {
        language: 'en',
        phrase,
        kind: 'respelling',
        says,
        wordLanguage,
      });
    };
    assert.ok((await update('Gisozi', 'Gisozi', 'fr')).ok);
    assert.ok((await update('Uwimana', 'Uwimana')).ok, 'and unset again');
    assert.deepEqual(await languages(), { Uwimana: null, Gisozi: 'fr', Nyanza: null });
    assert.equal(await said(lexicons, accountId, 'en', 'Ask Uwimana.'), 'Ask Uwimana.');
  });

  it('refuses an unknown word language, and a word language on an IPA entry, naming word_language', async () => {
    const accountId = await newAccount();
    for (const input of [
      { language: 'en', phrase: 'Uwase', kind: 'respelling', says: 'Uwase', wordLanguage: 'sw' },
      { language: 'en', phrase: 'Uwase', kind: 'respelling', says: 'Uwase', wordLanguage: 'RW' },
      { language: 'en', phrase: 'Nyanza', kind: 'ipa', says: 'njanza', wordLanguage: 'rw' },
    ]) {
      const result = await lexicons.add(accountId, input);
      assert.ok(
        !result.ok && result.code === 'invalid_entry' && result.field === 'wordLanguage',
        input.wordLanguage,
      );
    }
    assert.ok(
      (await lexicons.add(accountId, { language: 'en', phrase: 'Nyanza', kind: 'ipa', says: 'njanza' })).ok,
    );
    const [ipa] = await lexicons.list(accountId);
    const moved = await lexicons.update(accountId, ipa?.id ?? '', {
      language: 'en',
      phrase: 'Nyanza',
      kind: 'ipa',
      says: 'njanza',
      wordLanguage: 'rw',
    });
    assert.ok(!moved.ok && moved.code === 'invalid_entry' && moved.field === 'wordLanguage');
    assert.equal((await lexicons.list(accountId))[0]?.wordLanguage, null);
  });

  it('keeps at most 1,000 entries in the default dictionary, however many are added at once', async () => {
    const accountId = await newAccount();
    const add = (i: number) =>
      lexicons.add(accountId, { language: 'en', phrase: `word${i}`, kind: 'respelling', says: `say ${i}` });
    // All but the last 20 in batches of 50 (a thousand at once would wait on the database's
    // connection pool past its timeout on a loaded machine), then 40 at once for those 20.
    const filled = MAX_DICTIONARY_ENTRIES - 20;
    for (let from = 0; from < filled; from += 50) {
      const batch = Array.from({ length: Math.min(50, filled - from) }, (_, i) => add(from + i));
      assert.ok((await Promise.all(batch)).every((r) => r.ok));
    }
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => add(filled + i)));
    assert.equal(results.filter((r) => r.ok).length, 20);
    assert.ok(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === 'full'));
    assert.equal((await lexicons.list(accountId)).length, MAX_DICTIONARY_ENTRIES);
  });

  it('never applies one account’s lexicon to another, and a change on one instance reaches another', async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const elsewhere = new DictionaryService(context.db.dictionaries);
    assert.equal(await said(elsewhere, a, 'en', 'Dr Mugisha'), 'Dr Mugisha');
    assert.ok(
      (await lexicons.add(a, { language: 'en', phrase: 'Mugisha', kind: 'respelling', says: 'moo gee sha' }))
        .ok,
    );
    assert.equal(
      await said(elsewhere, a, 'en', 'Dr Mugisha'),
      'Dr moo gee sha',
      'the other instance sees the change',
    );
    assert.equal(await said(elsewhere, b, 'en', 'Dr Mugisha'), 'Dr Mugisha', 'another account never does');
    assert.equal(await said(elsewhere, a, 'fr', 'Dr Mugisha'), 'Dr Mugisha', 'nor another language');
  });
});
