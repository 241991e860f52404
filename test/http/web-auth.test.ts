import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildWebTestApp, TestBrowser, type WebFixture } from '../helpers/web-fixture.ts';

const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'correct horse battery staple';
let counter = 0;
const newEmail = () => `person${++counter}@example.org`;

function setCookie(response: { headers: Record<string, unknown> }, name: string): string {
  const all = [response.headers['set-cookie'] ?? []].flat().map(String);
  const found = all.find((c) => c.startsWith(`${name}=`));
  assert.ok(found, `Set-Cookie ${name} in ${all.join(' | ')}`);
  return found;
}

describe('sign-up, sign-in and sign-out', () => {
  let web: WebFixture;
  before(async () => {
    web = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
  });
  after(() => web.close());

  describe('happy', () => {
    it('signs up, lands on the dashboard signed in, with an HttpOnly SameSite session cookie', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      const email = newEmail();
      const response = await browser.signUp({ email, password: PASSWORD });
      assert.equal(response.statusCode, 303);
      assert.equal(response.headers.location, '/dashboard?notice=welcome');
      const cookie = setCookie(response, 'ijwi_session');
      assert.match(cookie, /; HttpOnly/);
      assert.match(cookie, /; SameSite=Lax/);
      assert.match(cookie, /; Path=\//);
      assert.doesNotMatch(cookie, /Secure/, 'plain http: a Secure cookie would never come back');
      const dashboard = await browser.get('/dashboard?notice=welcome');
      assert.equal(dashboard.statusCode, 200);
      assert.ok(dashboard.body.includes(email));
      assert.ok(dashboard.body.includes('Welcome to Ijwi'));
    });

    it('stores an scrypt hash of the password, never the password', async () => {
      const email = newEmail();
      await new TestBrowser(web.app, ORIGIN).signUp({ email, password: PASSWORD });
      const row = await web.db.kysely
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      assert.match(row.password_hash, /^scrypt\$ln=15,r=8,p=1\$/);
      assert.ok(!row.password_hash.includes(PASSWORD));
    });

    it('gives a fresh session id at each sign-in and ends the session it replaces', async () => {
      const email = newEmail();
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.signUp({ email, password: PASSWORD });
      const first = browser.cookies.get('ijwi_session');
      // Signing in again from a signed-in browser, as a second tab would.
      const _csrf = await browser.formToken('/dashboard');
      const signedIn = await browser.post('/signin', { _csrf, email, password: PASSWORD });
      assert.equal(signedIn.statusCode, 303);
      const second = browser.cookies.get('ijwi_session');
      assert.ok(first && second && first !== second);
      const stale = await web.app.inject({
        method: 'GET',
        url: '/dashboard',
        headers: { cookie: `ijwi_session=${first}` },
      });
      assert.equal(stale.statusCode, 303, 'the replaced session no longer signs anyone in');
    });

    it('signs out: the cookie is cleared and the session ended', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.signUp({ email: newEmail(), password: PASSWORD });
      const token = browser.cookies.get('ijwi_session');
      const _csrf = await browser.formToken('/dashboard');
      const out = await browser.post('/signout', { _csrf });
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/');
      assert.equal(browser.cookies.has('ijwi_session'), false);
      const replay = await web.app.inject({
        method: 'GET',
        url: '/dashboard',
        headers: { cookie: `ijwi_session=${token}` },
      });
      assert.equal(replay.statusCode, 303);
      assert.equal(replay.headers.location, '/signin?next=%2Fdashboard');
    });

    it('returns to the page asked for after sign-in, but only to a page of this site', async () => {
      const email = newEmail();
      await new TestBrowser(web.app, ORIGIN).signUp({ email, password: PASSWORD });
      for (const [next, expected] of [
        ['/studio', '/studio'],
        ['//evil.example/x', '/dashboard'],
        ['https://evil.example/', '/dashboard'],
        ['/\\evil.example', '/dashboard'],
      ] as const) {
        const browser = new TestBrowser(web.app, ORIGIN);
        const _csrf = await browser.formToken('/signin');
        const response = await browser.post('/signin', { _csrf, email, password: PASSWORD, next });
        assert.equal(response.headers.location, expected, next);
      }
    });
  });

  describe('error', () => {
    it('refuses a password under 12 characters and keeps what was typed, but not the password', async () => {
      const email = newEmail();
      const response = await new TestBrowser(web.app, ORIGIN).signUp({
        email,
        password: 'short pass1',
        name: 'Clinic',
      });
      assert.equal(response.statusCode, 400);
      assert.ok(response.body.includes('at least 12 characters'));
      assert.ok(response.body.includes(`value="${email}"`));
      assert.ok(!response.body.includes('short pass1'));
      assert.equal(await web.users.signIn({ email, password: 'short pass1' }).then((r) => r.ok), false);
    });

    it('says everything wrong with a sign-up at once, each problem beside its field', async () => {
      const response = await new TestBrowser(web.app, ORIGIN).signUp({
        email: 'not-an-email',
        password: 'short',
        name: ' ',
      });
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /Please correct the 3 fields marked below/);
      for (const field of ['name', 'email', 'password']) {
        assert.match(
          response.body,
          new RegExp(`id="${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${field}-error`),
        );
        assert.match(response.body, new RegExp(`<p class="error-text" id="${field}-error">`));
      }
    });

    it('refuses an email that already has an account, whatever its case', async () => {
      const email = newEmail();
      await new TestBrowser(web.app, ORIGIN).signUp({ email, password: PASSWORD });
      const again = await new TestBrowser(web.app, ORIGIN).signUp({
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      assert.equal(again.statusCode, 409);
      assert.ok(again.body.includes('already uses this email'));
    });

    it('answers a wrong password and an unknown email with the same message', async () => {
      const email = newEmail();
      await new TestBrowser(web.app, ORIGIN).signUp({ email, password: PASSWORD });
      const wrong = await new TestBrowser(web.app, ORIGIN).signIn({
        email,
        password: 'not the password at all',
      });
      const unknown = await new TestBrowser(web.app, ORIGIN).signIn({
        email: newEmail(),
        password: PASSWORD,
      });
      assert.equal(wrong.statusCode, 401);
      assert.equal(unknown.statusCode, 401);
      const message = (body: string) => /<div class="alert alert-error"[^>]*><p>([^<]*)<\/p>/.exec(body)?.[1];
      assert.ok(message(wrong.body));
      assert.equal(message(wrong.body), message(unknown.body));
    });

    it('sends pages that need a session to sign-in', async () => {
      for (const path of ['/dashboard', '/studio']) {
        const response = await web.app.inject({ method: 'GET', url: path });
        assert.equal(response.statusCode, 303);
        assert.equal(response.headers.location, `/signin?next=${encodeURIComponent(path)}`);
      }
    });
  });

  describe('security', () => {
    it('uses Secure __Host- cookies when the site is served over https', async () => {
      const secure = await buildWebTestApp({
        pool: () => undefined,
        publicBaseUrl: 'https://voice.example.test',
      });
      try {
        const browser = new TestBrowser(secure.app, 'https://voice.example.test');
        const page = await browser.get('/signup');
        assert.match(setCookie(page, '__Host-ijwi_form'), /; Secure/);
        const response = await browser.signUp({ email: newEmail(), password: PASSWORD });
        assert.equal(response.statusCode, 303);
        const cookie = setCookie(response, '__Host-ijwi_session');
        assert.match(cookie, /; Secure/);
        assert.match(cookie, /; HttpOnly/);
        assert.match(cookie, /; Path=\//);
        assert.doesNotMatch(cookie, /Domain=/);
      } finally {
        await secure.close();
      }
    });

    it('refuses a form without its anti-forgery token, or with another one', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.get('/signup');
      const email = newEmail();
      const missing = await browser.post('/signup', { name: 'x', email, password: PASSWORD });
      assert.equal(missing.statusCode, 403);
      assert.ok(missing.body.includes('Request refused'));
      const forged = await browser.post('/signup', {
        _csrf: 'A'.repeat(43),
        name: 'x',
        email,
        password: PASSWORD,
      });
      assert.equal(forged.statusCode, 403);
      assert.equal((await web.users.signIn({ email, password: PASSWORD })).ok, false, 'no account was made');
    });

    it('refuses a form posted from another origin even with a valid token and session', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.signUp({ email: newEmail(), password: PASSWORD });
      const _csrf = await browser.formToken('/dashboard');
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: undefined, 'sec-fetch-site': 'cross-site' },
        { origin: undefined, 'sec-fetch-site': 'same-site' },
      ]) {
        const response = await browser.post('/dashboard/keys', { _csrf, name: 'stolen' }, headers);
        assert.equal(response.statusCode, 403, JSON.stringify(headers));
      }
      const dashboard = await browser.get('/dashboard');
      assert.ok(!dashboard.body.includes('stolen'), 'no key was created');
      const ok = await browser.post('/dashboard/keys', { _csrf, name: 'mine' });
      assert.equal(ok.statusCode, 303, 'the same form from the site itself works');
    });

    it('throttles sign-in per email: the sixth attempt in a minute is refused, even with the right password', async () => {
      const email = newEmail();
      await new TestBrowser(web.app, ORIGIN).signUp({ email, password: PASSWORD });
      for (let i = 0; i < 5; i++) {
        const guess = await new TestBrowser(web.app, `${ORIGIN}`).signIn({
          email,
          password: `wrong guess ${i}!!`,
        });
        assert.equal(guess.statusCode, 401);
      }
      const right = await new TestBrowser(web.app, ORIGIN).signIn({
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      assert.equal(right.statusCode, 429);
      assert.match(String(right.headers['retry-after']), /^\d+$/);
      assert.ok(right.body.includes('Too many attempts'));
    });

    it('throttles sign-in per address across emails', async () => {
      const local = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 21; i++) {
          const browser = new TestBrowser(local.app, ORIGIN, '192.0.2.7');
          statuses.push((await browser.signIn({ email: newEmail(), password: PASSWORD })).statusCode);
        }
        assert.deepEqual(statuses.slice(0, 20), Array(20).fill(401));
        assert.equal(statuses[20], 429);
      } finally {
        await local.close();
      }
    });

    // Behind a reverse proxy every visitor's socket address is the proxy's: the address the
    // throttle counts must then come from X-Forwarded-For, but only from a proxy that was named.
    it('counts visitors behind a trusted proxy by their forwarded address, and ignores the header otherwise', async () => {
      const PROXY = '192.0.2.1';
      const attempts = async (app: FastifyInstance, forwardedFor: (i: number) => string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 21; i++) {
          const browser = new TestBrowser(app, ORIGIN, PROXY);
          const _csrf = await browser.formToken('/signin');
          const response = await browser.post(
            '/signin',
            { _csrf, email: newEmail(), password: PASSWORD },
            { 'x-forwarded-for': forwardedFor(i) },
          );
          statuses.push(response.statusCode);
        }
        return statuses;
      };
      const proxied = await buildWebTestApp({
        pool: () => undefined,
        publicBaseUrl: ORIGIN,
        trustedProxies: [PROXY],
      });
      const direct = await buildWebTestApp({ pool: () => undefined, publicBaseUrl: ORIGIN });
      try {
        const manyVisitors = (i: number) => `198.51.100.${i + 1}`;
        assert.deepEqual(await attempts(proxied.app, manyVisitors), Array(21).fill(401));
        assert.equal((await attempts(proxied.app, () => '203.0.113.9'))[20], 429, 'one visitor, 21 tries');
        // Not a named proxy: the header could be anyone's invention, so the socket address counts.
        assert.equal((await attempts(direct.app, manyVisitors))[20], 429);
      } finally {
        await proxied.close();
        await direct.close();
      }
    });

    it('escapes what users type wherever a page shows it', async () => {
      const browser = new TestBrowser(web.app, ORIGIN);
      await browser.signUp({ email: newEmail(), password: PASSWORD, name: '<script>alert(1)</script>' });
      const dashboard = await browser.get('/dashboard');
      assert.ok(!dashboard.body.includes('<script>alert(1)'));
      assert.ok(dashboard.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.match(String(dashboard.headers['content-security-policy']), /script-src 'self'/);
    });
  });
});
