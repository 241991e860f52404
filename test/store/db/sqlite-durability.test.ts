import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Schema } from '../../../src/store/db/schema.ts';
import { sqlDatabase } from '../../../src/store/db/sql-database.ts';
import { openSqliteDatabase } from '../../../src/store/db/sqlite-database.ts';
import {
  type FileFlusher,
  oneFlushAtATime,
  sqliteDurability,
  walFlusher,
} from '../../../src/store/db/sqlite-durability.ts';

// How the embedded database's frequent writes reach the disk: bookkeeping left for the next flushed
// commit, the ledger's transactions flushed off the request thread before they resolve, and every
// other query flushed by SQLite itself, whatever runs beside them.

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-durability-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function synchronous(db: Kysely<Schema>): Promise<number> {
  const result = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
  return result.rows[0]?.synchronous ?? Number.NaN;
}

/** A promise that resolves when `open` is called. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A WAL flusher standing in for the file's, flushing with `flush`. */
function flusher(flush: () => Promise<void>): FileFlusher {
  return { flush, failed: false, close: async () => {} };
}

const FULL = 2;
const NORMAL = 1;

describe('sqliteDurability', () => {
  it('writes bookkeeping unflushed, while a transaction that comes meanwhile waits and is flushed', async () => {
    const db = await openSqliteDatabase(join(dir, 'bookkeeping.sqlite'));
    const durability = sqliteDurability(join(dir, 'bookkeeping.sqlite'));
    try {
      const held = gate();
      const during = durability.bookkeeping(db.kysely, async (kysely) => {
        const mode = await synchronous(kysely);
        await held.opened;
        return mode;
      });
      const meanwhile = db.kysely.transaction().execute((trx) => synchronous(trx));
      await new Promise((resolve) => setTimeout(resolve, 20));
      held.open();
      assert.equal(await during, NORMAL);
      assert.equal(await meanwhile, FULL);
      await assert.rejects(
        durability.bookkeeping(db.kysely, () => Promise.reject(new Error('write failed'))),
        /write failed/,
      );
      assert.equal(await synchronous(db.kysely), FULL, 'FULL again, after a failed write too');
    } finally {
      await db.close();
    }
  });

  it('commits a ledger transaction unflushed, and resolves only once the WAL file is flushed', async () => {
    const path = join(dir, 'ledger.sqlite');
    const db = await openSqliteDatabase(path);
    let flushed = 0;
    const flushing = gate();
    const durability = sqliteDurability(
      path,
      flusher(async () => {
        await flushing.opened;
        flushed++;
      }),
    );
    try {
      let resolved = false;
      const charge = durability
        .ledger(
          db.kysely,
          async (trx) => {
            await trx
              .insertInto('accounts')
              .values({ id: 'acct_d', name: 'Durable', email: null, created_at: '2026-01-01' })
              .execute();
            return synchronous(trx);
          },
          {},
        )
        .then((mode) => {
          resolved = true;
          return mode;
        });
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(resolved, false, 'not done before its flush');
      const seen = await db.kysely.selectFrom('accounts').select('id').where('id', '=', 'acct_d').execute();
      assert.equal(seen.length, 1, 'committed, and the connection free for others meanwhile');
      assert.equal(await synchronous(db.kysely), FULL);
      flushing.open();
      assert.equal(await charge, NORMAL);
      assert.equal(flushed, 1);
      // A transaction that fails is rolled back, and nothing is flushed for it.
      await assert.rejects(
        durability.ledger(db.kysely, () => Promise.reject(new Error('refused')), {}),
        /refused/,
      );
      assert.equal(flushed, 1);
      assert.equal(await synchronous(db.kysely), FULL);
    } finally {
      await db.close();
    }
  });

  it('resolves a charge at its commit, its flush started and not awaited', async () => {
    const path = join(dir, 'charge.sqlite');
    const db = await openSqliteDatabase(path);
    let started = 0;
    const durability = sqliteDurability(
      path,
      flusher(() => {
        started++;
        return new Promise<void>(() => {});
      }),
    );
    try {
      const mode = await durability.ledger(db.kysely, async (trx) => synchronous(trx), {
        beforeFlushed: true,
      });
      assert.equal(mode, NORMAL);
      assert.equal(started, 1, 'its flush is under way');
    } finally {
      await db.close();
    }
  });

  it('flushes a file that exists, and fails for one that does not (the caller is never told done)', async () => {
    const file = join(dir, 'some.wal');
    writeFileSync(file, 'frames');
    const wal = walFlusher(file);
    await wal.flush();
    await wal.flush();
    await wal.close();
    const missing = walFlusher(join(dir, 'missing-wal'));
    await assert.rejects(missing.flush(), { code: 'ENOENT' });
    // Tried again at the next flush: the file may be there by then.
    writeFileSync(join(dir, 'missing-wal'), 'frames');
    await missing.flush();
    await missing.close();
  });

  it('closes its file only after the flushes asked for before, and opens none after', async () => {
    const file = join(dir, 'closing.wal');
    writeFileSync(file, 'frames');
    const handles: FileHandle[] = [];
    const wal = walFlusher(file, async (handle) => {
      handles.push(handle);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await handle.datasync();
    });
    // A charge's flush is not awaited: one runs, one waits behind it, and the database closes.
    const running = wal.flush();
    const queued = wal.flush();
    await wal.close();
    await Promise.all([running, queued]);
    await wal.flush();
    assert.equal(handles.length, 2, 'both flushes ran before the file was closed');
    assert.ok(
      handles.every((handle) => handle.fd === -1),
      'no descriptor left open for the garbage collector to close',
    );
  });

  it('fails every flush after one that failed, the file being written again or not', async () => {
    const file = join(dir, 'failing.wal');
    writeFileSync(file, 'frames');
    let syncs = 0;
    const wal = walFlusher(file, async () => {
      syncs++;
      if (syncs === 1) throw Object.assign(new Error('I/O error'), { code: 'EIO' });
    });
    await assert.rejects(wal.flush(), { code: 'EIO' });
    writeFileSync(file, 'more frames');
    await assert.rejects(wal.flush(), { code: 'EIO' }, 'not flushed again as if nothing was lost');
    assert.equal(syncs, 1);
    await wal.close();
  });

  it('says in the health check that a flush failed, and confirms no credit after a charge whose flush failed', async () => {
    const path = join(dir, 'failing.sqlite');
    const db = await openSqliteDatabase(path);
    const durability = sqliteDurability(
      path,
      walFlusher(`${path}-wal`, () => Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' }))),
    );
    const failing = sqlDatabase(db.kysely, { rowLocks: false, durability });
    try {
      assert.equal(await failing.ping(), true);
      await durability.ledger(db.kysely, async () => 'charged', { beforeFlushed: true });
      // The charge's flush runs on after it resolved: wait (at most 5 s) until it has failed.
      for (let waited = 0; durability.check() === true && waited < 5000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(await failing.ping(), 'a flush to disk failed');
      await assert.rejects(
        durability.ledger(db.kysely, async () => 'topped up', {}),
        { name: 'StoreUnavailableError' },
        'a top-up is never confirmed, nor written',
      );
    } finally {
      await db.close();
    }
  });

  it('runs a ledger transaction of an in-memory database with nothing to flush', async () => {
    const db = await openSqliteDatabase(':memory:');
    try {
      const durability = sqliteDurability(
        ':memory:',
        flusher(() => Promise.reject(new Error('no file to flush'))),
      );
      assert.equal(await durability.ledger(db.kysely, async (trx) => synchronous(trx), {}), FULL);
    } finally {
      await db.close();
    }
  });
});

describe('oneFlushAtATime', () => {
  /** A flush that runs until it is let finish, counted. */
  function heldFlushes() {
    const flushes: { readonly finish: (error?: Error) => void }[] = [];
    const flushNow = () =>
      new Promise<void>((resolve, reject) => {
        flushes.push({ finish: (error) => (error ? reject(error) : resolve()) });
      });
    return { flushes, flush: oneFlushAtATime(flushNow) };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('shares one next flush among every call made while one runs, and ends none before its own', async () => {
    const { flushes, flush } = heldFlushes();
    const done: number[] = [];
    const first = flush().then(() => done.push(0));
    const during = Array.from({ length: 9 }, (_, i) => flush().then(() => done.push(i + 1)));
    await settle();
    assert.equal(flushes.length, 1, 'one flush at a time');
    flushes[0]?.finish();
    await first;
    await settle();
    assert.deepEqual(done, [0], 'the calls made during the first flush wait for the next');
    assert.equal(flushes.length, 2, 'one more flush, for all nine');
    flushes[1]?.finish();
    await Promise.all(during);
    assert.equal(done.length, 10);
  });

  it('fails the callers of a failed flush, and the next call flushes again', async () => {
    const { flushes, flush } = heldFlushes();
    const failing = flush();
    const waiting = flush();
    await settle();
    flushes[0]?.finish(new Error('disk gone'));
    await assert.rejects(failing, /disk gone/);
    await settle();
    assert.equal(flushes.length, 2, 'the waiting call still gets a flush of its own');
    flushes[1]?.finish();
    await waiting;
    const later = flush();
    await settle();
    assert.equal(flushes.length, 3);
    flushes[2]?.finish();
    await later;
  });
});
