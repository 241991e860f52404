import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assetUrl } from '../../src/web/assets.ts';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'pages test password';
let counter = 0;

describe('web pages', () => {
  let web: WebFixture;
  before(async () => {
    web = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
  });
  after(() => web.close());

  const signedIn = async () => {
    const browser = new TestBrowser(web.app, ORIGIN);
    await browser.signUp({ email: `pages${++counter}@example.org`, password: PASSWORD });
    return browser;
  };

  describe('happy', () => {
    it('serves the landing page with the languages, voices and prices', async () => {
      const response = await web.app.inject({ method: 'GET', url: '/' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      for (const text of [
        'Kinyarwanda',
        'Mugisha',
        'Baraka',
        'Aline',
        '0.04 USD',
        '289 tokens',
        '5 free generations',
        'href="/docs"',
        // What each language's voices are, said plainly.
        'Spoken by Flite: voices built from recordings of real speakers.',
        'Spoken by eSpeak NG: formant synthesis',
      ]) {
        assert.ok(response.body.includes(text), text);
      }
      assert.doesNotMatch(response.body, /natural/i, 'no claim the benches do not show');
    });

    it('serves the API docs with copyable curl calls for both TTS endpoints and the reference', async () => {
      const response = await web.app.inject({ method: 'GET', url: '/docs' });
      assert.equal(response.statusCode, 200);
      assert.match(response.body, /<code id="curl-tts">curl -s http:\/\/127\.0\.0\.1\/api\/v1\/tts\.php/);
      assert.match(
        response.body,
        /<code id="curl-tts-stream">curl -s -D - -o reply\.ulaw http:\/\/127\.0\.0\.1\/api\/v1\/tts-stream\.php/,
      );
      assert.ok(response.body.includes('data-copy="curl-tts"'));
      for (const anchor of ['id="tts"', 'id="tts-stream"', 'id="voices"', 'id="health"']) {
        assert.ok(response.body.includes(anchor), `reference section ${anchor}`);
      }
      assert.ok(
        response.body.includes('<code>ws://127.0.0.1/api/v1/tts-live</code>'),
        'the live socket address',
      );
      for (const type of [
        'text',
        'flush',
        'end',
        'clear',
        'close',
        'audio',
        'words',
        'done',
        'cleared',
        'error',
      ])
        assert.ok(
          response.body.includes(`{&quot;type&quot;:&quot;${type}&quot;`),
          `the live message ${type}`,
        );
    });

    it('lists every voice with a sample to play on the voices page', async () => {
      const response = await web.app.inject({ method: 'GET', url: '/api/v1/voices.php' });
      assert.equal(response.statusCode, 200);
      const samples = [
        ...response.body.matchAll(/<audio controls preload="none" src="(\/samples\/[a-z]{2}-\d\.wav)"/g),
      ];
      assert.equal(samples.length, 11);
      assert.match(String(response.headers['content-security-policy']), /media-src 'self'/);
    });

    it('serves assets with a long cache for the versioned URL', async () => {
      const response = await web.app.inject({ method: 'GET', url: assetUrl('site.css') });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/css/);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
      const again = await web.app.inject({
        method: 'GET',
        url: '/assets/site.css',
        headers: { 'if-none-match': String(response.headers.etag) },
      });
      assert.equal(again.statusCode, 304);
    });

    it('shows a new key once, then only its hint', async () => {
      const browser = await signedIn();
      const _csrf = await browser.formToken('/dashboard');
      const posted = await browser.post('/dashboard/keys', { _csrf, name: 'receptionist' });
      assert.equal(posted.statusCode, 303, 'post/redirect/get');
      assert.equal(posted.headers.location, '/dashboard?notice=key_created#keys-title');
      const created = await browser.get('/dashboard?notice=key_created');
      assert.equal(created.headers['cache-control'], 'no-store');
      const key =
        /id="new-key-value" class="key-value" type="text" readonly value="(ijwi_sk_[A-Za-z0-9]+)"/.exec(
          created.body,
        )?.[1];
      assert.ok(key, 'the key is on the page');
      assert.ok((await web.accounts.authenticate(key)).ok);
      const later = await browser.get('/dashboard?notice=key_created');
      assert.ok(!later.body.includes(key), 'not shown again, even on a reload of the same page');
      assert.ok(later.body.includes('shown once'), 'the notice says it was shown once');
      assert.ok(later.body.includes(`ijwi_sk_…${key.slice(-4)}`), 'the hint is listed');
      assert.ok(later.body.includes('receptionist'));
    });

    it('takes a request to buy tokens once, with the price and a reference, and names the contact', async () => {
      const browser = await signedIn();
      const _csrf = await browser.formToken('/dashboard');
      const refused = await browser.post('/dashboard/topup-requests', { _csrf, tokens: '100' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.body, /id="topup-error">Ask for a whole number of tokens from 289/);
      assert.match(refused.body, /id="topup-tokens"[^>]*value="100"[^>]*aria-invalid="true"/);
      const asked = await browser.post('/dashboard/topup-requests', { _csrf, tokens: '289' });
      assert.equal(asked.statusCode, 303);
      const page = await browser.get('/dashboard?notice=topup_requested');
      assert.match(
        page.body,
        /<code>IJW-[A-Z0-9]{8}<\/code><\/td><td data-label="Tokens">289<\/td><td data-label="Price">11\.56 USD/,
      );
      assert.match(page.body, /Waiting for payment/);
      assert.match(page.body, /mailto:help@ijwi\.example/);
      assert.equal((page.body.match(/IJW-/g) ?? []).length, 1, 'one request, however often the page reloads');
      assert.match(
        (await browser.get('/')).body,
        /mailto:help@ijwi\.example/,
        'the landing page names the contact',
      );
    });

    it('revokes a key from the dashboard', async () => {
      const browser = await signedIn();
      const _csrf = await browser.formToken('/dashboard');
      await browser.post('/dashboard/keys', { _csrf, name: 'old' });
      const created = await browser.get('/dashboard');
      const key = /value="(ijwi_sk_[A-Za-z0-9]+)"/.exec(created.body)?.[1] ?? '';
      const action = /action="(\/dashboard\/keys\/key_[A-Za-z0-9]+\/revoke)"/.exec(created.body)?.[1] ?? '';
      const revoked = await browser.post(action, { _csrf });
      assert.equal(revoked.statusCode, 303);
      assert.match(String(revoked.headers.location), /^\/dashboard\?notice=key_revoked/);
      assert.deepEqual(await web.accounts.authenticate(key), { ok: false, code: 'revoked_key' });
      assert.ok((await browser.get('/dashboard')).body.includes('Revoked'));
    });
  });

  describe('error', () => {
    it('answers 503 for a voice sample while the engines warm up, and 404 for no such voice', async () => {
      const warming = await web.app.inject({ method: 'GET', url: '/samples/rw-0.wav' });
      assert.equal(warming.statusCode, 503);
      for (const url of [
        '/samples/rw-7.wav',
        '/samples/de-0.wav',
        '/samples/rw-0.mp3',
        '/assets/nothing.css',
      ]) {
        assert.equal((await web.app.inject({ method: 'GET', url })).statusCode, 404, url);
      }
    });

    it('refuses an over-long key name and says why', async () => {
      const browser = await signedIn();
      const _csrf = await browser.formToken('/dashboard');
      const response = await browser.post('/dashboard/keys', { _csrf, name: 'k'.repeat(101) });
      assert.equal(response.statusCode, 400);
      assert.ok(response.body.includes('at most 100 characters'));
    });
  });

  describe('security', () => {
    it('hands a new key to the next page sealed for its session only, in a cookie no other site sends', async () => {
      const owner = await signedIn();
      await owner.post('/dashboard/keys', { _csrf: await owner.formToken('/dashboard'), name: 'sealed' });
      const [name, sealed] = [...owner.cookies].find(([cookie]) => cookie.includes('new_key')) ?? ['', ''];
      assert.ok(sealed.length > 0 && !sealed.includes('ijwi_sk_'), 'the key is not readable in the cookie');
      const thief = await signedIn();
      thief.cookies.set(name, sealed);
      const stolen = await thief.get('/dashboard?notice=key_created');
      assert.ok(!/value="ijwi_sk_/.test(stolen.body), 'another session cannot open it');
    });

    it('cannot revoke another account’s key', async () => {
      const owner = await signedIn();
      const ownerToken = await owner.formToken('/dashboard');
      await owner.post('/dashboard/keys', { _csrf: ownerToken, name: 'theirs' });
      const created = await owner.get('/dashboard');
      const key = /value="(ijwi_sk_[A-Za-z0-9]+)"/.exec(created.body)?.[1] ?? '';
      const action = /action="(\/dashboard\/keys\/key_[A-Za-z0-9]+\/revoke)"/.exec(created.body)?.[1] ?? '';
      const other = await signedIn();
      const response = await other.post(action, { _csrf: await other.formToken('/dashboard') });
      assert.match(String(response.headers.location), /notice=key_not_found/);
      assert.ok((await web.accounts.authenticate(key)).ok, 'the key still works');
    });

    it('keeps form bodies out of the API: a urlencoded TTS request is still 415', async () => {
      const response = await web.app.inject({
        method: 'POST',
        url: '/api/v1/tts.php',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer x' },
        payload: 'input=hello',
      });
      assert.equal(response.statusCode, 415);
      assert.equal(response.json().error.code, 'unsupported_media_type');
    });

    it('sends pages with a content security policy and no framing', async () => {
      for (const url of ['/', '/signin', '/signup', '/docs']) {
        const response = await web.app.inject({ method: 'GET', url });
        assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/, url);
        assert.equal(response.headers['x-frame-options'], 'DENY', url);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
      }
    });
  });
});
