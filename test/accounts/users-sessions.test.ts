import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { SESSION_LIFETIME_MS, SessionService } from '../../src/accounts/sessions.ts';
import { UserService } from '../../src/accounts/users.ts';
import { webRepositories } from '../../src/store/db/web-repositories.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

const PASSWORD = 'a perfectly fine password';

describeEachDatabase('users and sessions', (context) => {
  let users: UserService;
  let now = new Date('2026-01-10T08:00:00.000Z');
  let sessions: SessionService;
  before(() => {
    const repositories = webRepositories(context.db.kysely);
    users = new UserService({ users: repositories.users, now: () => now });
    sessions = new SessionService({ sessions: repositories.sessions, now: () => now });
  });

  describe('sign-up', () => {
    it('makes an account and its user together, with the email lower-cased', async () => {
      const result = await users.signUp({
        name: ' Kigali Clinic ',
        email: ' Ops@Clinic.RW ',
        password: PASSWORD,
      });
      assert.ok(result.ok);
      assert.equal(result.user.email, 'ops@clinic.rw');
      assert.equal(result.account.name, 'Kigali Clinic');
      assert.equal(result.user.accountId, result.account.id);
      assert.match(result.user.id, /^usr_[0-9A-Za-z]{20}$/);
      const account = await context.db.accounts.find(result.account.id);
      assert.equal(account?.email, 'ops@clinic.rw');
    });

    it('refuses a taken email and writes nothing', async () => {
      const before = await context.db.kysely
        .selectFrom('accounts')
        .select(context.db.kysely.fn.countAll().as('n'))
        .executeTakeFirst();
      const result = await users.signUp({ name: 'Again', email: 'OPS@clinic.rw', password: PASSWORD });
      assert.deepEqual(result.ok ? 'ok' : result.code, 'email_taken');
      const after = await context.db.kysely
        .selectFrom('accounts')
        .select(context.db.kysely.fn.countAll().as('n'))
        .executeTakeFirst();
      assert.equal(Number(after?.n), Number(before?.n));
    });

    it('lets exactly one of two simultaneous sign-ups with one email through', async () => {
      const results = await Promise.all(
        ['First', 'Second'].map((name) =>
          users.signUp({ name, email: 'race@clinic.rw', password: PASSWORD }),
        ),
      );
      assert.deepEqual(results.map((r) => (r.ok ? 'ok' : r.code)).sort(), ['email_taken', 'ok']);
      const accounts = await context.db.kysely
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', 'race@clinic.rw')
        .execute();
      assert.equal(accounts.length, 1, 'no account without its user');
    });

    it('checks name, email and password', async () => {
      const codes = await Promise.all([
        users.signUp({ name: ' ', email: 'a@b.rw', password: PASSWORD }),
        users.signUp({ name: 'A', email: 'not an email', password: PASSWORD }),
        users.signUp({ name: 'A', email: '', password: PASSWORD }),
        users.signUp({ name: 'A', email: 'c@d.rw', password: 'too short' }),
      ]);
      assert.deepEqual(
        codes.map((r) => (r.ok ? 'ok' : r.code)),
        ['invalid_name', 'invalid_email', 'invalid_email', 'weak_password'],
      );
    });
  });

  describe('sign-in', () => {
    it('finds the user by email in any case with the right password only', async () => {
      assert.ok((await users.signIn({ email: 'OPS@CLINIC.RW', password: PASSWORD })).ok);
      assert.deepEqual(await users.signIn({ email: 'ops@clinic.rw', password: `${PASSWORD}!` }), {
        ok: false,
        code: 'invalid_credentials',
      });
      assert.deepEqual(await users.signIn({ email: 'nobody@clinic.rw', password: PASSWORD }), {
        ok: false,
        code: 'invalid_credentials',
      });
    });
  });

  describe('sessions', () => {
    it('starts with a new random token, stores only its hash, resumes it and ends it', async () => {
      const signedIn = await users.signIn({ email: 'ops@clinic.rw', password: PASSWORD });
      assert.ok(signedIn.ok);
      const first = await sessions.start(signedIn.user);
      const second = await sessions.start(signedIn.user);
      assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(first.token, second.token);
      assert.notEqual(first.session.csrfToken, second.session.csrfToken);
      const stored = await context.db.kysely.selectFrom('sessions').select('token_hash').execute();
      assert.ok(
        stored.every((row) => row.token_hash !== first.token && /^[0-9a-f]{64}$/.test(row.token_hash)),
      );
      const resumed = await sessions.resume(first.token);
      assert.equal(resumed?.user.email, 'ops@clinic.rw');
      assert.equal(resumed?.csrfToken, first.session.csrfToken);
      await sessions.end(first.token);
      assert.equal(await sessions.resume(first.token), undefined);
      assert.ok(await sessions.resume(second.token), 'other sessions live on');
    });

    it('expires after its lifetime and is then removed', async () => {
      const signedIn = await users.signIn({ email: 'ops@clinic.rw', password: PASSWORD });
      assert.ok(signedIn.ok);
      const { token } = await sessions.start(signedIn.user);
      now = new Date(now.getTime() + SESSION_LIFETIME_MS - 1);
      assert.ok(await sessions.resume(token));
      now = new Date(now.getTime() + 1);
      assert.equal(await sessions.resume(token), undefined);
      // Starting a session clears every expired one (here, those of the test before).
      await sessions.start(signedIn.user);
      const left = await context.db.kysely.selectFrom('sessions').select('token_hash').execute();
      assert.equal(left.length, 1, 'only the new session is left');
    });

    it('ignores malformed and unknown tokens', async () => {
      for (const token of ['', 'x', 'a'.repeat(43), `${'a'.repeat(42)}!`]) {
        assert.equal(await sessions.resume(token), undefined);
        await sessions.end(token);
      }
    });
  });
});
