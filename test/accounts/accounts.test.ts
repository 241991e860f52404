import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountService, LAST_USED_INTERVAL_MS } from '../../src/accounts/accounts.ts';
import { generateApiKey } from '../../src/accounts/keys.ts';
import type { ApiKeyRepository } from '../../src/accounts/repositories.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// Behaviour from the API contract (Authentication): keys shown once, only a hash and a hint
// stored, malformed/unknown/revoked keys refused, a typo refused without a database look-up.
// Part of the store contract: the same tests run on every database.

function counting(keys: ApiKeyRepository): { repo: ApiKeyRepository; lookups: () => number } {
  let count = 0;
  const repo: ApiKeyRepository = {
    insert: (k) => keys.insert(k),
    find: (id) => keys.find(id),
    findByHash: (hash) => {
      count++;
      return keys.findByHash(hash);
    },
    listByAccount: (id) => keys.listByAccount(id),
    revoke: (id, at) => keys.revoke(id, at),
    touch: (id, at, stale) => keys.touch(id, at, stale),
  };
  return { repo, lookups: () => count };
}

async function newAccount(service: AccountService, name = 'Umuryango Radio'): Promise<string> {
  const result = await service.createAccount({ name, email: 'ops@example.rw' });
  assert.ok(result.ok);
  return result.account.id;
}

describeEachDatabase('accounts and API keys', (context) => {
  describe('accounts', () => {
    it('creates an account with an acct_ id and refuses an empty name or a bad email', async () => {
      const service = new AccountService(context.db);
      const created = await service.createAccount({ name: '  Kigali Call Centre  ' });
      assert.ok(created.ok);
      assert.match(created.account.id, /^acct_[0-9A-Za-z]{20}$/);
      assert.equal(created.account.name, 'Kigali Call Centre');
      assert.deepEqual(await service.getAccount(created.account.id), created.account);

      const empty = await service.createAccount({ name: '   ' });
      assert.equal(empty.ok ? 'ok' : empty.code, 'invalid_name');
      const email = await service.createAccount({ name: 'A', email: 'not an address' });
      assert.equal(email.ok ? 'ok' : email.code, 'invalid_email');
    });
  });

  describe('API keys', () => {
    it('returns the key once and stores only its hash and hint', async () => {
      const service = new AccountService(context.db);
      const accountId = await newAccount(service);
      const created = await service.createKey(accountId, { name: 'production' });
      assert.ok(created.ok);
      assert.match(created.record.id, /^key_/);
      assert.equal(created.record.hint, `ijwi_sk_…${created.key.slice(-4)}`);
      assert.equal('hash' in created.record, false, 'the view carries no hash');

      const rows = await context.db.kysely.selectFrom('api_keys').selectAll().execute();
      const stored = JSON.stringify(rows);
      assert.ok(!stored.includes(created.key), 'the key itself is nowhere in the table');
      assert.ok(!stored.includes(created.key.slice(8, -6)), 'nor is its secret part');

      const listed = await service.listKeys(accountId);
      assert.ok(listed.ok);
      assert.deepEqual(listed.keys, [created.record]);
    });

    it('refuses a key for an unknown account', async () => {
      const result = await new AccountService(context.db).createKey('acct_missing');
      assert.deepEqual(result, { ok: false, code: 'account_not_found' });
    });

    it('authenticates a key to its account and key ids', async () => {
      const service = new AccountService(context.db);
      const accountId = await newAccount(service);
      const created = await service.createKey(accountId);
      assert.ok(created.ok);
      assert.deepEqual(await service.authenticate(created.key), {
        ok: true,
        accountId,
        keyId: created.record.id,
      });
    });

    it('refuses a one-character typo without a database look-up', async () => {
      const { repo, lookups } = counting(context.db.keys);
      const service = new AccountService({ accounts: context.db.accounts, keys: repo });
      const accountId = await newAccount(service);
      const created = await service.createKey(accountId);
      assert.ok(created.ok);
      const last = created.key.at(-10) === 'a' ? 'b' : 'a';
      const typo = created.key.slice(0, -10) + last + created.key.slice(-9);
      assert.deepEqual(await service.authenticate(typo), { ok: false, code: 'malformed_key' });
      assert.deepEqual(await service.authenticate('Bearer nonsense'), { ok: false, code: 'malformed_key' });
      assert.equal(lookups(), 0);
    });

    it('refuses a well-formed key that was never issued', async () => {
      const service = new AccountService(context.db);
      // Any generated key has a valid checksum; this one is not in the database.
      assert.deepEqual(await service.authenticate(generateApiKey().key), { ok: false, code: 'unknown_key' });
    });

    it('refuses a revoked key from then on, and revokes only once', async () => {
      const service = new AccountService(context.db);
      const accountId = await newAccount(service);
      const created = await service.createKey(accountId);
      assert.ok(created.ok);
      const other = await newAccount(service, 'Someone Else');

      assert.deepEqual(await service.revokeKey(created.record.id, other), {
        ok: false,
        code: 'key_not_found',
      });
      assert.ok((await service.authenticate(created.key)).ok, 'another account cannot revoke it');

      const revoked = await service.revokeKey(created.record.id);
      assert.ok(revoked.ok);
      assert.notEqual(revoked.key.revokedAt, null);
      assert.deepEqual(await service.authenticate(created.key), { ok: false, code: 'revoked_key' });
      assert.deepEqual(await service.revokeKey(created.record.id), { ok: false, code: 'already_revoked' });
      assert.deepEqual(await service.revokeKey('key_missing'), { ok: false, code: 'key_not_found' });

      const listed = await service.listKeys(accountId);
      assert.ok(listed.ok);
      assert.equal(listed.keys[0]?.revokedAt, revoked.key.revokedAt);
    });

    it('writes last-used at most once per minute per key', async () => {
      let now = Date.parse('2025-03-01T08:00:00.000Z');
      const service = new AccountService({
        accounts: context.db.accounts,
        keys: context.db.keys,
        now: () => new Date(now),
      });
      const accountId = await newAccount(service);
      const created = await service.createKey(accountId);
      assert.ok(created.ok);
      const lastUsed = async () => (await context.db.keys.find(created.record.id))?.lastUsedAt;

      assert.equal(await lastUsed(), null);
      await service.authenticate(created.key);
      assert.equal(await lastUsed(), '2025-03-01T08:00:00.000Z');

      now += LAST_USED_INTERVAL_MS - 1;
      await service.authenticate(created.key);
      assert.equal(await lastUsed(), '2025-03-01T08:00:00.000Z', 'unchanged within the minute');

      now += 1;
      await service.authenticate(created.key);
      assert.equal(await lastUsed(), '2025-03-01T08:01:00.000Z', 'refreshed once a minute has passed');
    });
  });
});
