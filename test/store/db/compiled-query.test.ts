import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import { CompiledOnce } from '../../../src/store/db/compiled-query.ts';
import { describeEachDatabase } from '../../helpers/databases.ts';

// A query compiled once and run again with each call's values gives each call its own rows, and a
// value stays a bound parameter whatever it holds.

describeEachDatabase('CompiledOnce', (context) => {
  const byEmail = new CompiledOnce(1, (db, email) =>
    db.selectFrom('accounts').select(['id', 'name']).where('email', '=', email),
  );

  before(async () => {
    for (const [id, name] of [
      ['acct_compiled_a', 'Ada'],
      ['acct_compiled_b', 'Bea'],
    ] as const) {
      await context.db.kysely
        .insertInto('accounts')
        .values({ id, name, email: `${id}@example.test`, created_at: new Date().toISOString() })
        .execute();
    }
  });

  it('runs with each call’s values, in a transaction too', async () => {
    const db = context.db.kysely;
    assert.equal((await byEmail.first(db, 'acct_compiled_a@example.test'))?.name, 'Ada');
    assert.equal((await byEmail.first(db, 'acct_compiled_b@example.test'))?.name, 'Bea');
    assert.equal(await byEmail.first(db, 'nobody@example.test'), undefined);
    const inTransaction = await db
      .transaction()
      .execute((trx) => byEmail.first(trx, 'acct_compiled_b@example.test'));
    assert.equal(inTransaction?.id, 'acct_compiled_b');
  });

  it('binds a value that looks like SQL as a value', async () => {
    const db = context.db.kysely;
    assert.equal(await byEmail.first(db, "x' or '1'='1"), undefined);
    assert.equal(byEmail.with(db, "x' or '1'='1").sql.includes("'1'='1"), false);
  });

  it('puts one value wherever the query uses it', async () => {
    const both = new CompiledOnce(1, (db, id) =>
      db
        .selectFrom('accounts')
        .select('name')
        .where('id', '=', id)
        .where('email', '=', (eb) => eb.selectFrom('accounts as a').select('a.email').where('a.id', '=', id)),
    );
    assert.equal((await both.first(context.db.kysely, 'acct_compiled_a'))?.name, 'Ada');
  });

  it('refuses a query that does not bind its values, and a run with too few values', () => {
    const inlined = new CompiledOnce(1, (db, email) =>
      db.selectFrom('accounts').select('id').where('email', '=', sql.lit(email)),
    );
    assert.throws(() => inlined.with(context.db.kysely, 'a@example.test'), /not bound as a parameter/);
    assert.throws(() => byEmail.with(context.db.kysely), /takes 1 values, not 0/);
  });
});
