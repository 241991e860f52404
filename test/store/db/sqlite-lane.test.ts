import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { prepared, runDirectly } from '../../../src/store/db/prepared-query.ts';
import type { Schema } from '../../../src/store/db/schema.ts';
import { openSqliteDatabase } from '../../../src/store/db/sqlite-database.ts';
import { ImmediateSqliteDialect } from '../../../src/store/db/sqlite-dialect.ts';
import { sqliteDurability } from '../../../src/store/db/sqlite-durability.ts';
import { reportingUnavailable } from '../../../src/store/db/unavailable-dialect.ts';

// A prepared query, or a bookkeeping write, made while nobody holds the embedded database's one
// connection runs at once, without kysely's executor; one made while a transaction or another
// scope holds it waits its turn, as every query does, and sees only what that scope committed.

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-lane-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const FULL = 2;
const NORMAL = 1;
const never = () => false;

/** A database with a lane, as `openSqliteDatabase` makes it, its WAL flushed by nobody. */
function open(name: string) {
  const path = join(dir, name);
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.exec(
    'create table accounts (id text primary key, name text not null, email text, created_at text not null)',
  );
  const dialect = new ImmediateSqliteDialect({ database: sqlite, isUnavailable: never });
  const kysely = new Kysely<Schema>({ dialect: reportingUnavailable(dialect, never) });
  runDirectly(kysely, dialect.lane);
  const durability = sqliteDurability(
    path,
    { flush: async () => {}, failed: false, close: async () => {} },
    dialect.lane,
  );
  return { kysely, lane: dialect.lane, durability };
}

/** The account every test starts with. */
const addAccountA = (kysely: Kysely<Schema>) =>
  kysely
    .insertInto('accounts')
    .values({ id: 'a', name: 'A', email: null, created_at: '2026-01-01T00:00:00.000Z' })
    .execute();

/** A promise that settles when `release` is called: a scope held open until the test lets it go. */
function closedGate(): { gate: Promise<void>; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release };
}

const names = prepared((db, _values: Record<string, never>) =>
  db.selectFrom('accounts').select('name').orderBy('id'),
);
const mode = prepared((db, _values: Record<string, never>) =>
  db.selectNoFrom(sql<number>`(select synchronous from pragma_synchronous)`.as('mode')),
);
const rename = prepared((db, row: { id: string; name: string }) =>
  db.updateTable('accounts').set({ name: row.name }).where('id', '=', row.id),
);

describe('the SQLite lane', () => {
  it('runs a prepared query at once while nobody holds the connection', async () => {
    const { kysely, lane } = open('free.sqlite');
    try {
      await addAccountA(kysely);
      assert.equal(lane.free, true);
      let settled = false;
      const read = names(kysely, {}).then((result) => {
        settled = true;
        return result;
      });
      await Promise.resolve();
      assert.equal(settled, true, 'settled within one turn of the microtask queue, not after the executor');
      assert.deepEqual((await read).rows, [{ name: 'A' }]);
    } finally {
      await kysely.destroy();
    }
  });

  it('makes a prepared query wait while a transaction holds the connection, and shows it only what was committed', async () => {
    const { kysely, lane } = open('held.sqlite');
    try {
      await addAccountA(kysely);
      const { gate, release } = closedGate();
      const order: string[] = [];
      const transaction = kysely.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ name: 'B' }).where('id', '=', 'a').execute();
        await gate;
        await trx.updateTable('accounts').set({ name: 'C' }).where('id', '=', 'a').execute();
        order.push('committed');
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(lane.free, false);
      const read = names(kysely, {}).then((result) => {
        order.push('read');
        return result.rows;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(order, [], 'the read waits for the transaction');
      release();
      await transaction;
      assert.deepEqual(await read, [{ name: 'C' }], 'never the B the transaction held uncommitted');
      assert.deepEqual(order, ['committed', 'read']);
      assert.equal(lane.free, true);
    } finally {
      await kysely.destroy();
    }
  });

  it('runs a bookkeeping write unflushed at once, and FULL again before anything else runs', async () => {
    const { kysely, lane, durability } = open('bookkeeping.sqlite');
    try {
      await addAccountA(kysely);
      let during: number | undefined;
      const write = durability.bookkeeping(kysely, async (db) => {
        during = (await mode(db, {})).rows[0]?.mode;
        return rename(db, { id: 'a', name: 'B' });
      });
      assert.equal(lane.free, true, 'the connection is free again once the call returns');
      assert.equal((await write).numAffectedRows, 1n);
      assert.equal(during, NORMAL, 'its first statement ran between the pragmas');
      assert.equal((await mode(kysely, {})).rows[0]?.mode, FULL);
      assert.deepEqual((await names(kysely, {})).rows, [{ name: 'B' }]);
      await assert.rejects(
        durability.bookkeeping(kysely, () => Promise.reject(new Error('write failed'))),
        /write failed/,
      );
      assert.equal((await mode(kysely, {})).rows[0]?.mode, FULL, 'FULL again, after a failed write too');
    } finally {
      await kysely.destroy();
    }
  });

  it('makes a bookkeeping write wait its turn while a transaction holds the connection', async () => {
    const { kysely, durability } = open('bookkeeping-held.sqlite');
    try {
      await addAccountA(kysely);
      const { gate, release } = closedGate();
      const transaction = kysely.transaction().execute(async (trx) => {
        await gate;
        return (await mode(trx, {})).rows[0]?.mode;
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      let during: number | undefined;
      const write = durability.bookkeeping(kysely, async (db) => {
        during = (await mode(db, {})).rows[0]?.mode;
        return rename(db, { id: 'a', name: 'B' });
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(during, undefined, 'not run while the transaction holds the connection');
      release();
      assert.equal(await transaction, FULL, 'the transaction ran flushed');
      assert.equal((await write).numAffectedRows, 1n);
      assert.equal(during, NORMAL);
      assert.equal((await mode(kysely, {})).rows[0]?.mode, FULL);
    } finally {
      await kysely.destroy();
    }
  });

  it('runs a ledger transaction on the connection, unflushed, and commits it', async () => {
    const { kysely, lane, durability } = open('ledger.sqlite');
    try {
      await addAccountA(kysely);
      const order: string[] = [];
      const value = await durability.ledger(
        kysely,
        async (trx) => {
          assert.equal(lane.free, false);
          const during = (await mode(trx, {})).rows[0]?.mode;
          await rename(trx, { id: 'a', name: 'B' });
          // A query of the database itself waits for the commit, and sees it.
          void names(kysely, {}).then((result) => order.push(`read ${result.rows[0]?.name}`));
          await new Promise((resolve) => setTimeout(resolve, 10));
          // Not a prepared query: kysely's executor, on the same connection.
          const rows = await trx.selectFrom('accounts').select('name').execute();
          order.push('work done');
          return { during, rows };
        },
        { beforeFlushed: true },
      );
      assert.equal(value.during, NORMAL);
      assert.deepEqual(value.rows, [{ name: 'B' }]);
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(order, ['work done', 'read B']);
      assert.equal((await mode(kysely, {})).rows[0]?.mode, FULL);
      assert.equal(lane.free, true);
    } finally {
      await kysely.destroy();
    }
  });

  it('rolls a failed ledger transaction back, and refuses its kysely instance once it has ended', async () => {
    const { kysely, lane, durability } = open('ledger-failed.sqlite');
    try {
      await addAccountA(kysely);
      let kept: Kysely<Schema> | undefined;
      await assert.rejects(
        durability.ledger(
          kysely,
          async (trx) => {
            kept = trx;
            await rename(trx, { id: 'a', name: 'B' });
            throw new Error('work failed');
          },
          {},
        ),
        /work failed/,
      );
      assert.deepEqual((await names(kysely, {})).rows, [{ name: 'A' }], 'nothing of it was kept');
      assert.equal((await mode(kysely, {})).rows[0]?.mode, FULL);
      assert.equal(lane.free, true);
      assert.ok(kept);
      const ended = kept;
      await assert.rejects(async () => rename(ended, { id: 'a', name: 'C' }), /transaction has ended/);
      await assert.rejects(
        async () => ended.selectFrom('accounts').selectAll().execute(),
        /transaction has ended/,
      );
      assert.deepEqual((await names(kysely, {})).rows, [{ name: 'A' }]);
    } finally {
      await kysely.destroy();
    }
  });

  it('makes a ledger transaction wait its turn while a bookkeeping scope holds the connection', async () => {
    const { kysely, durability } = open('ledger-held.sqlite');
    try {
      await addAccountA(kysely);
      const { gate, release } = closedGate();
      const order: string[] = [];
      const scope = kysely.connection().execute(async () => {
        await gate;
        order.push('scope');
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      const ledger = durability.ledger(
        kysely,
        async (trx) => {
          order.push('ledger');
          return (await mode(trx, {})).rows[0]?.mode;
        },
        {},
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(order, []);
      release();
      await scope;
      assert.equal(await ledger, NORMAL);
      assert.deepEqual(order, ['scope', 'ledger']);
    } finally {
      await kysely.destroy();
    }
  });

  it('reports a write lock held past the busy timeout as the store being unavailable', async () => {
    const path = join(dir, 'busy.sqlite');
    const db = await openSqliteDatabase(path, { busyTimeoutMs: 50 });
    const other = new BetterSqlite3(path);
    try {
      await db.accounts.insert({
        id: 'acct_a',
        name: 'A',
        email: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      await db.keys.insert({
        id: 'key_a',
        accountId: 'acct_a',
        name: null,
        hash: 'hash_a',
        hint: 'a',
        createdAt: '2026-01-01T00:00:00.000Z',
        lastUsedAt: null,
        revokedAt: null,
      });
      other.exec('begin immediate');
      await assert.rejects(db.keys.touch('key_a', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'), {
        name: 'StoreUnavailableError',
      });
      other.exec('rollback');
      assert.equal(
        await db.keys.touch('key_a', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'),
        true,
      );
      assert.equal((await db.keys.findByHash('hash_a'))?.lastUsedAt, '2026-01-02T00:00:00.000Z');
    } finally {
      other.close();
      await db.close();
    }
  });
});
