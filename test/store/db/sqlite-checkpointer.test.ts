import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { startCheckpointer } from '../../../src/store/db/sqlite-checkpointer.ts';

// The checkpointing thread lives only while there is a WAL to copy back: started once the writes
// pause (or the WAL passes its largest size), ended once everything is copied back.

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-checkpointer-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A database in WAL mode whose connection writes as the service's request connection does. */
function writer(name: string) {
  const path = join(dir, name);
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('journal_size_limit = 0');
  db.exec('create table rows (body blob)');
  const insert = db.prepare('insert into rows values (randomblob(4000))');
  return {
    path,
    write: (rows: number) => {
      for (let i = 0; i < rows; i++) insert.run();
    },
    walBytes: () => statSync(`${path}-wal`).size,
    close: () => db.close(),
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const giveUpAt = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > giveUpAt) assert.fail(`gave up waiting: ${what}`);
    await sleep(10);
  }
}

describe('startCheckpointer', () => {
  it('starts no thread for a WAL below its size, and one once the writes pause, which then ends', async () => {
    const db = writer('pause.sqlite');
    const checkpointer = startCheckpointer(db.path, 1000, { intervalMs: 20, minBytes: 64 * 1024 });
    try {
      db.write(2); // about 8 KB: below the size
      await sleep(150);
      assert.equal(checkpointer.checkpoints, 0);
      assert.equal(checkpointer.threadRunning, false);
      db.write(100);
      await until(
        () => checkpointer.checkpoints === 1 && !checkpointer.threadRunning,
        'a checkpoint, then no thread',
      );
      // Everything was copied back: no further checkpoint while nothing new is written.
      await sleep(150);
      assert.equal(checkpointer.checkpoints, 1);
      assert.equal(checkpointer.threadRunning, false);
      // The next write starts the WAL again from its beginning, cut to what it writes.
      const full = db.walBytes();
      db.write(1);
      assert.ok(db.walBytes() < full / 10, `${db.walBytes()} bytes after a write, ${full} before`);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('leaves a WAL that grows between looks alone until it passes the largest size', async () => {
    const db = writer('busy.sqlite');
    const checkpointer = startCheckpointer(db.path, 1000, {
      intervalMs: 20,
      minBytes: 16 * 1024,
      maxBytes: 2 * 1024 * 1024,
    });
    try {
      // Writes that never pause for two looks, staying under 2 MiB: no checkpoint.
      while (db.walBytes() < 1024 * 1024) {
        db.write(10);
        await sleep(5);
      }
      assert.equal(checkpointer.checkpoints, 0);
      // Past 2 MiB, still writing: copied back all the same.
      while (checkpointer.checkpoints === 0) {
        db.write(10);
        await sleep(5);
        assert.ok(db.walBytes() < 8 * 1024 * 1024, 'the WAL went far past its largest size');
      }
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('copies the WAL into the database file', async () => {
    const db = writer('copied.sqlite');
    const checkpointer = startCheckpointer(db.path, 1000, { intervalMs: 1_000_000 });
    try {
      db.write(50);
      const result = await checkpointer.checkpoint();
      assert.equal(result.busy, false);
      assert.ok(result.walPages > 0);
      assert.equal(result.checkpointedPages, result.walPages);
      assert.equal(checkpointer.threadRunning, false, 'the thread ends with its work done');
      // The database file alone, copied without its WAL while the writer is still open, holds every row.
      const copy = join(dir, 'copied-alone.sqlite');
      copyFileSync(db.path, copy);
      const file = new BetterSqlite3(copy, { readonly: true });
      try {
        assert.equal((file.prepare('select count(*) as n from rows').get() as { n: number }).n, 50);
      } finally {
        file.close();
      }
    } finally {
      await checkpointer.close();
      db.close();
    }
  });

  it('tells its owner once when a thread dies, and starts no other', async () => {
    const lost: unknown[] = [];
    // A database the thread cannot open: its connection fails and the thread dies.
    const path = join(dir, 'missing', 'folder', 'db.sqlite');
    const checkpointer = startCheckpointer(path, 1000, { intervalMs: 1_000_000 }, (error) =>
      lost.push(error),
    );
    try {
      await assert.rejects(checkpointer.checkpoint());
      assert.equal(lost.length, 1);
      assert.equal(checkpointer.threadRunning, false);
      await assert.rejects(checkpointer.checkpoint());
      assert.equal(lost.length, 1, 'told once');
    } finally {
      await checkpointer.close();
    }
  });
});
