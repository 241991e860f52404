import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Database } from '../../../src/store/db/database.ts';
import { openDatabase } from '../../../src/store/db/open-database.ts';
import { openSqliteDatabase } from '../../../src/store/db/sqlite-database.ts';
import { reusingStatements } from '../../../src/store/db/sqlite-dialect.ts';

// What only the embedded database does; the behaviour both databases share is in database.test.ts.

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-sqlite-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function pragma(db: Database, name: string): Promise<unknown> {
  const result = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db.kysely);
  return Object.values(result.rows[0] ?? {})[0];
}

describe('openSqliteDatabase', () => {
  it('creates missing parent folders and sets WAL, a busy timeout and foreign keys', async () => {
    const path = join(dir, 'nested', 'deeper', 'ijwi.sqlite');
    const db = await openSqliteDatabase(path);
    try {
      assert.ok(existsSync(path));
      assert.equal(await pragma(db, 'journal_mode'), 'wal');
      assert.equal(await pragma(db, 'foreign_keys'), 1);
      assert.equal(await pragma(db, 'busy_timeout'), 5000);
      assert.equal(await pragma(db, 'synchronous'), 2, 'FULL: a commit is flushed before it returns');
    } finally {
      await db.close();
    }
  });

  it('flushes every commit to disk on a file it opens again, already in WAL', async () => {
    const path = join(dir, 'reopened.sqlite');
    await (await openSqliteDatabase(path)).close();
    const db = await openSqliteDatabase(path);
    try {
      assert.equal(await pragma(db, 'journal_mode'), 'wal');
      assert.equal(await pragma(db, 'synchronous'), 2, 'FULL, not the NORMAL a WAL file opens with');
    } finally {
      await db.close();
    }
  });

  it('leaves checkpoints to a thread of its own, which copies the WAL into the file', async () => {
    // A request's commit that passes the WAL's 1,000 pages would copy it back and wait for the
    // flush, with every call in the process waiting behind it.
    const path = join(dir, 'checkpointed.sqlite');
    const db = await openSqliteDatabase(path, { checkpoint: { intervalMs: 10, minBytes: 0 } });
    try {
      assert.equal(await pragma(db, 'wal_autocheckpoint'), 0, 'the request connection never checkpoints');
      const accounts = 40;
      for (let i = 0; i < accounts; i++)
        await db.accounts.insert({
          id: `acct_checkpoint${i}`,
          name: 'Checkpoint',
          email: null,
          createdAt: new Date().toISOString(),
        });
      // Far below 1,000 pages, where SQLite's own checkpoint would come: the database file alone,
      // copied without its WAL, holds every row once the thread has copied the WAL back.
      const rowsInFile = () => {
        const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}.sqlite`);
        copyFileSync(path, copy);
        const file = new BetterSqlite3(copy);
        try {
          return (
            file.prepare("select count(*) as n from accounts where name = 'Checkpoint'").get() as {
              n: number;
            }
          ).n;
        } catch {
          return 0; // a copy taken while the thread wrote the file
        } finally {
          file.close();
        }
      };
      const giveUpAt = Date.now() + 10_000;
      while (rowsInFile() < accounts && Date.now() < giveUpAt) await sleep(20);
      assert.equal(rowsInFile(), accounts);
    } finally {
      await db.close();
    }
  });

  it('is what openDatabase opens for an sqlite source or a plain path', async () => {
    const file = join(dir, 'factory.sqlite');
    for (const source of [{ kind: 'sqlite', file } as const, file, ':memory:']) {
      const db = await openDatabase(source);
      try {
        assert.equal(await pragma(db, 'foreign_keys'), 1);
      } finally {
        await db.close();
      }
    }
    assert.ok(existsSync(file));
  });
});

describe('reusingStatements', () => {
  it('prepares each SQL text once, keeps at most its capacity, and drops the least recently used', () => {
    const sqlite = new BetterSqlite3(':memory:');
    const prepared: string[] = [];
    const counting = {
      close: () => sqlite.close(),
      prepare(text: string) {
        prepared.push(text);
        return sqlite.prepare(text);
      },
    };
    const db = reusingStatements(counting, 2);
    try {
      const one = db.prepare('select 1 as v');
      assert.equal(db.prepare('select 1 as v'), one);
      assert.deepEqual(one.all([]), [{ v: 1 }]);
      assert.deepEqual(one.all([]), [{ v: 1 }]);
      db.prepare('select 2 as v');
      db.prepare('select 1 as v');
      db.prepare('select 3 as v');
      // 'select 2' was the least recently used when 'select 3' came in.
      db.prepare('select 1 as v');
      db.prepare('select 2 as v');
      assert.deepEqual(prepared, ['select 1 as v', 'select 2 as v', 'select 3 as v', 'select 2 as v']);
    } finally {
      db.close();
    }
  });
});
