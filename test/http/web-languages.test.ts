import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { translatorFor } from '../../src/web/i18n/translator.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

// Which language a page is served in: the account's choice, else the browser's (the switcher's
// cookie), else Accept-Language, else English. The API's JSON stays English whatever is asked.

const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'languages test password';
const htmlLang = (body: string) => /<html lang="(\w+)">/.exec(body)?.[1];

describe('the website’s languages', () => {
  let web: WebFixture;
  before(async () => {
    web = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
  });
  after(() => web.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    web.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });

  describe('happy', () => {
    it('serves every page in the language the browser asks for, English when it asks for none of ours', async () => {
      for (const url of [
        '/',
        '/voices',
        '/api/v1/voices.php',
        '/docs',
        '/signin',
        '/signup',
        '/status',
        '/nowhere',
      ]) {
        for (const [header, language] of [
          ['rw-RW,rw;q=0.9,en;q=0.5', 'rw'],
          ['fr-FR,fr;q=0.9', 'fr'],
          ['de-DE', 'en'],
        ] as const) {
          const response = await get(url, { 'accept-language': header });
          assert.equal(htmlLang(response.body), language, `${url} for ${header}`);
          assert.match(String(response.headers.vary), /Accept-Language/, url);
        }
      }
      const page = await get('/', { 'accept-language': 'fr' });
      assert.ok(page.body.includes(`<h1>${translatorFor('fr').text('landing.title')}</h1>`));
    });

    it('switches with a link that remembers the choice and comes back to the page, over the browser’s own', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      const switched = await browser.get('/language/rw?next=%2Fdocs%23live');
      assert.equal(switched.statusCode, 303);
      assert.equal(switched.headers.location, '/docs#live');
      assert.match(
        String(switched.headers['set-cookie']),
        /ijwi_lang=rw; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax/,
      );
      const cookie = `ijwi_lang=${browser.cookies.get('ijwi_lang')}`;
      const docs = await get('/docs', { cookie, 'accept-language': 'fr' });
      assert.equal(htmlLang(docs.body), 'rw', 'the choice wins over Accept-Language');
      // Every page's switcher leads back to that page, each language named in itself.
      for (const [language, name] of [
        ['rw', 'Ikinyarwanda'],
        ['fr', 'Français'],
        ['en', 'English'],
      ]) {
        assert.ok(
          docs.body.includes(
            `<a href="/language/${language}?next=%2Fdocs" lang="${language}" hreflang="${language}"`,
          ),
          language,
        );
        assert.ok(docs.body.includes(`>${name}</a>`), name);
      }
    });

    it('keeps a signed-in person’s choice with the account, and brings it to every browser they sign in from', async () => {
      const first = new TestBrowser(web.app, ORIGIN);
      // Signed up from a page in French: the account's language is French.
      first.cookies.set('ijwi_lang', 'fr');
      await first.signUp({ email: 'choice@example.org', password: PASSWORD });
      const language = async () =>
        (
          await web.db.kysely
            .selectFrom('users')
            .select('language')
            .where('email', '=', 'choice@example.org')
            .executeTakeFirstOrThrow()
        ).language;
      assert.equal(await language(), 'fr');
      await first.get('/language/rw?next=/dashboard');
      assert.equal(await language(), 'rw');
      const second = new TestBrowser(web.app, ORIGIN);
      const signedIn = await second.signIn({ email: 'choice@example.org', password: PASSWORD });
      assert.equal(signedIn.statusCode, 303);
      assert.equal(second.cookies.get('ijwi_lang'), 'rw', 'the browser takes the account’s choice');
      assert.equal(htmlLang((await second.get('/dashboard')).body), 'rw');
    });

    it('shows a refusal in the page’s language', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      browser.cookies.set('ijwi_lang', 'fr');
      const refused = await browser.post('/signin', {
        email: 'nobody@example.org',
        password: 'wrong password!!',
      });
      assert.equal(refused.statusCode, 403);
      assert.ok(refused.body.includes(translatorFor('fr').text('refused.text')));
      const wrong = await browser.signIn({ email: 'nobody@example.org', password: 'wrong password!!' });
      assert.equal(wrong.statusCode, 401);
      assert.ok(wrong.body.includes(translatorFor('fr').text('signin.error.credentials')));
    });
  });

  describe('error', () => {
    it('refuses a language the site does not have, and never sends the switcher elsewhere', async () => {
      assert.equal((await get('/language/de?next=/')).statusCode, 404);
      const away = await get('/language/fr?next=%2F%2Fevil.example%2F');
      assert.equal(away.statusCode, 303);
      assert.equal(away.headers.location, '/');
    });

    it('keeps the API’s JSON errors in English whatever language is asked for', async () => {
      for (const header of ['rw', 'fr']) {
        const response = await web.app.inject({
          method: 'POST',
          url: '/api/v1/tts.php',
          headers: {
            'accept-language': header,
            cookie: `ijwi_lang=${header}`,
            'content-type': 'application/json',
          },
          payload: '{}',
        });
        assert.equal(response.statusCode, 401);
        assert.equal(response.json().error.code, 'invalid_api_key');
        assert.match(response.json().error.message, /API key/);
      }
    });
  });
});
