import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Database } from '../../../src/store/db/database.ts';
import { openDatabase } from '../../../src/store/db/open-database.ts';
import { prepared } from '../../../src/store/db/prepared-query.ts';

// A query built once and run again with new values binds each by name, keeps the constants it was
// built with, and refuses a value it would not bind rather than run the wrong SQL.

let db: Database;
before(async () => {
  db = await openDatabase(':memory:');
  await db.accounts.insert({ id: 'acct_a', name: 'A', email: null, createdAt: '2026-01-01T00:00:00.000Z' });
  await db.accounts.insert({ id: 'acct_b', name: 'B', email: null, createdAt: '2026-01-02T00:00:00.000Z' });
});
after(() => db.close());

describe('prepared', () => {
  it('binds each run its own values, by name, beside the constants of the query', async () => {
    let builds = 0;
    const named = prepared((kysely, where: { id: string; name: string }) => {
      builds++;
      return kysely
        .selectFrom('accounts')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', where.id), eb('name', '=', where.name)]))
        .where('created_at', '>', '2000-01-01')
        .orderBy('id');
    });
    const ids = async (where: { id: string; name: string }) =>
      (await named(db.kysely, where)).rows.map((row) => row.id);
    assert.deepEqual(await ids({ id: 'acct_a', name: 'nobody' }), ['acct_a']);
    assert.deepEqual(await ids({ name: 'B', id: 'acct_none' }), ['acct_b']);
    assert.deepEqual(await ids({ id: 'acct_a', name: 'B' }), ['acct_a', 'acct_b']);
    assert.equal(builds, 1);
  });

  it('refuses a value that no placeholder takes', async () => {
    const unused = prepared((kysely, _where: { id: string }) => kysely.selectFrom('accounts').select('id'));
    await assert.rejects(async () => unused(db.kysely, { id: 'acct_a' }), /id is bound to no placeholder/);
  });
});
