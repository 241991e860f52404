import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

// The dashboard's pronunciation forms and the word language of an entry (`word_language`): added,
// listed, changed and refused through the pages as a person uses them, and heard in the studio.

const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'lexicon pages password';
let counter = 0;

describe('lexicon pages: the word language of an entry', () => {
  let pool: EnginePool;
  let web: WebFixture;
  before(async () => {
    pool = await startTestPool();
    web = await buildWebTestApp({ pool: () => pool, publicBaseUrl: ORIGIN });
  });
  after(async () => {
    await web.close();
    await pool.close();
  });

  const signedIn = async () => {
    const browser = new TestBrowser(web.app, ORIGIN);
    await browser.signUp({ email: `lexicon${++counter}@example.org`, password: PASSWORD });
    return browser;
  };
  const add = async (browser: TestBrowser, fields: Record<string, string>) =>
    browser.post('/dashboard/lexicon', { _csrf: await browser.formToken('/dashboard/lexicon'), ...fields });
  /** The edit form of the entry for `phrase`: its action and the word language it shows. */
  const listed = async (browser: TestBrowser, phrase: string) => {
    const page = (await browser.get('/dashboard/lexicon')).body;
    const form = new RegExp(
      `<form method="post" action="(/dashboard/lexicon/lex_[A-Za-z0-9]+)"[^>]*aria-label="Edit ${phrase}">([\\s\\S]*?)</form>`,
    ).exec(page);
    assert.ok(form, `${phrase} is listed`);
    const select = /name="word_language">([\s\S]*?)<\/select>/.exec(form[2] ?? '')?.[1] ?? '';
    const selected = /<option value="([a-z]*)" selected>/.exec(select)?.[1];
    return { action: form[1] ?? '', wordLanguage: selected };
  };
  /** The studio's audio for `input`, as its page asks for it. */
  const heard = async (browser: TestBrowser, input: string, textType = 'text') => {
    const response = await browser.speak({ input, language: 'rw', text_type: textType });
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    return response.rawPayload;
  };

  describe('happy', () => {
    it('adds an entry said as a word of another language, and the studio says it so', async () => {
      const owner = await signedIn();
      const added = await add(owner, {
        language: 'rw',
        phrase: 'bite',
        kind: 'respelling',
        says: 'bite',
        word_language: 'en',
      });
      assert.equal(added.statusCode, 303, added.body.slice(0, 300));
      assert.equal((await listed(owner, 'bite')).wordLanguage, 'en');
      // "bite" in Kinyarwanda text is the greeting; the entry makes it the English word.
      const sentence = 'Ejo dufite bite i Kigali.';
      const other = await signedIn();
      const mine = await heard(owner, sentence);
      assert.deepEqual(
        mine,
        await heard(other, '<speak>Ejo dufite <lang xml:lang="en">bite</lang> i Kigali.</speak>', 'ssml'),
        'said as SSML lang says it',
      );
      assert.notDeepEqual(mine, await heard(other, sentence), 'another account hears the greeting');
    });

    it('changes the word language of an entry and unsets it, from the entry’s own form', async () => {
      const browser = await signedIn();
      await add(browser, { language: 'en', phrase: 'Gisozi', kind: 'respelling', says: 'Gisozi' });
      const entry = await listed(browser, 'Gisozi');
      assert.equal(entry.wordLanguage, '', 'none: decided automatically');
      const save = async (wordLanguage: string) =>
        browser.post(entry.action, {
          _csrf: await browser.formToken('/dashboard/lexicon'),
          language: 'en',
          phrase: 'Gisozi',
          kind: 'respelling',
          says: 'Gisozi',
          word_language: wordLanguage,
        });
      assert.equal((await save('rw')).headers.location, '/dashboard/lexicon?notice=saved');
      assert.equal((await listed(browser, 'Gisozi')).wordLanguage, 'rw');
      assert.equal((await save('')).headers.location, '/dashboard/lexicon?notice=saved');
      assert.equal((await listed(browser, 'Gisozi')).wordLanguage, '');
    });
  });

  describe('error', () => {
    it('refuses a word language on an IPA entry, with the message beside the field', async () => {
      const browser = await signedIn();
      const refused = await add(browser, {
        language: 'en',
        phrase: 'Nyanza',
        kind: 'ipa',
        says: 'njanza',
        word_language: 'rw',
      });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /id="lex-word-language-error">IPA is said as written, in no language/);
      assert.match(refused.body, /id="lex-word-language" name="word_language" aria-invalid="true"/);
      assert.match(refused.body, /<option value="rw" selected>/, 'the form keeps what was chosen');
      assert.match((await browser.get('/dashboard/lexicon')).body, /No entries yet/);
    });

    it('refuses a language Ijwi does not say, and an IPA entry edited to have one', async () => {
      const browser = await signedIn();
      const unknown = await add(browser, {
        language: 'en',
        phrase: 'Jambo',
        kind: 'respelling',
        says: 'Jambo',
        word_language: 'sw',
      });
      assert.equal(unknown.statusCode, 400);
      assert.match(unknown.body, /id="lex-word-language-error">Choose one of the languages listed/);
      await add(browser, { language: 'en', phrase: 'Nyanza', kind: 'ipa', says: 'njanza' });
      const entry = await listed(browser, 'Nyanza');
      const edited = await browser.post(entry.action, {
        _csrf: await browser.formToken('/dashboard/lexicon'),
        language: 'en',
        phrase: 'Nyanza',
        kind: 'ipa',
        says: 'njanza',
        word_language: 'rw',
      });
      assert.equal(edited.statusCode, 400);
      assert.match(edited.body, /IPA is said as written, in no language/);
      assert.equal((await listed(browser, 'Nyanza')).wordLanguage, '', 'unchanged');
    });
  });

  describe('dictionaries', () => {
    it('lists the account’s dictionaries, the default one first, and no other account’s', async () => {
      const email = `lexicon${++counter}@example.org`;
      const owner = new TestBrowser(web.app, ORIGIN);
      await owner.signUp({ email, password: PASSWORD });
      await add(owner, { language: 'en', phrase: 'Uwase', kind: 'respelling', says: 'oo wah seh' });
      const user = await web.db.kysely
        .selectFrom('users')
        .select('account_id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const clinic = await web.dictionaries.create(user.account_id, {
        name: 'Clinic <Kigali>',
        entries: [{ language: 'en', phrase: 'Mugabo', kind: 'respelling', says: 'moo gah boh' }],
      });
      assert.ok(clinic.ok);
      const page = (await owner.get('/dashboard/lexicon')).body;
      const rows = [...page.matchAll(/<td data-label="Name"><span translate="no">([^<]*)<\/span>/g)].map(
        (m) => m[1],
      );
      assert.deepEqual(rows, ['default', 'Clinic &lt;Kigali&gt;'], 'names escaped, the default first');
      assert.ok(page.includes(`<code translate="no">${clinic.dictionary.id}</code>`));
      const other = await signedIn();
      assert.ok(!(await other.get('/dashboard/lexicon')).body.includes(clinic.dictionary.id));
    });
  });

  describe('security', () => {
    it('cannot set the word language of another account’s entry', async () => {
      const owner = await signedIn();
      await add(owner, { language: 'en', phrase: 'Uwimana', kind: 'respelling', says: 'Uwimana' });
      const entry = await listed(owner, 'Uwimana');
      const other = await signedIn();
      const response = await other.post(entry.action, {
        _csrf: await other.formToken('/dashboard/lexicon'),
        language: 'en',
        phrase: 'Uwimana',
        kind: 'respelling',
        says: 'Uwimana',
        word_language: 'rw',
      });
      assert.equal(response.headers.location, '/dashboard/lexicon?notice=not_found');
      assert.equal((await listed(owner, 'Uwimana')).wordLanguage, '');
    });

    it('refuses a change without the form’s anti-forgery token', async () => {
      const browser = await signedIn();
      await add(browser, { language: 'en', phrase: 'Kacyiru', kind: 'respelling', says: 'Kacyiru' });
      const entry = await listed(browser, 'Kacyiru');
      const forged = await browser.post(entry.action, {
        language: 'en',
        phrase: 'Kacyiru',
        kind: 'respelling',
        says: 'Kacyiru',
        word_language: 'fr',
      });
      assert.equal(forged.statusCode, 403);
      assert.equal((await listed(browser, 'Kacyiru')).wordLanguage, '');
    });
  });
});
