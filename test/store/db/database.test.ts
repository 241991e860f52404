import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { BillingService } from '../../../src/accounts/billing.ts';
import { openDatabase } from '../../../src/store/db/database.ts';

const run = promisify(execFile);

let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'ijwi-store-'));
});

after(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function pragma(db: Awaited<ReturnType<typeof openDatabase>>, name: string): Promise<unknown> {
  const result = await sql.raw<Record<string, unknown>>(`pragma ${name}`).execute(db.kysely);
  return Object.values(result.rows[0] ?? {})[0];
}

const account = {
  id: 'acct_store0000000000001',
  name: 'Store Test',
  email: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('openDatabase', () => {
  it('creates missing parent folders and sets WAL, a busy timeout and foreign keys', async () => {
    const path = join(dir, 'nested', 'deeper', 'ijwi.sqlite');
    const db = await openDatabase(path);
    try {
      assert.ok(existsSync(path));
      assert.equal(await pragma(db, 'journal_mode'), 'wal');
      assert.equal(await pragma(db, 'foreign_keys'), 1);
      assert.equal(await pragma(db, 'busy_timeout'), 5000);
    } finally {
      await db.close();
    }
  });

  it('keeps data across a reopen and migrates only once', async () => {
    const path = join(dir, 'reopen.sqlite');
    const first = await openDatabase(path);
    await first.accounts.insert(account);
    await first.close();
    const second = await openDatabase(path);
    try {
      assert.deepEqual(await second.accounts.find(account.id), account);
      const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(
        second.kysely,
      );
      assert.deepEqual(
        migrations.rows.map((r) => r.name),
        ['0001_accounts_keys_ledger'],
      );
    } finally {
      await second.close();
    }
  });

  it('answers ping while open and says closed after close', async () => {
    const db = await openDatabase(':memory:');
    assert.equal(await db.ping(), true);
    await db.close();
    await db.close();
    assert.equal(await db.ping(), 'closed');
  });
});

describe('ledger schema', () => {
  it('refuses entries whose sign contradicts their kind, and entries of unknown accounts', async () => {
    const db = await openDatabase(join(dir, 'schema.sqlite'));
    try {
      await db.accounts.insert(account);
      const base = {
        account_id: account.id,
        characters: null,
        language: null,
        seconds: null,
        request_id: null,
        created_at: '2025-01-01T00:00:00.000Z',
      };
      const insert = (row: {
        id: string;
        seq: number;
        kind: 'top_up' | 'charge' | 'free_use';
        tokens: number;
      }) =>
        db.kysely
          .insertInto('ledger')
          .values({ ...base, ...row })
          .execute();
      await assert.rejects(insert({ id: 'led_1', seq: 1, kind: 'top_up', tokens: -300 }), /CHECK/);
      await assert.rejects(insert({ id: 'led_2', seq: 1, kind: 'charge', tokens: 5 }), /CHECK/);
      await assert.rejects(insert({ id: 'led_3', seq: 1, kind: 'free_use', tokens: -1 }), /CHECK/);
      await insert({ id: 'led_4', seq: 1, kind: 'top_up', tokens: 300 });
      await assert.rejects(insert({ id: 'led_5', seq: 1, kind: 'charge', tokens: -1 }), /UNIQUE/);
      await assert.rejects(
        db.kysely
          .insertInto('ledger')
          .values({ ...base, account_id: 'acct_nobody', id: 'led_6', seq: 1, kind: 'top_up', tokens: 300 })
          .execute(),
        /FOREIGN KEY/,
      );
    } finally {
      await db.close();
    }
  });
});

describe('several processes on one database file', () => {
  it('can all open a new file at the same moment (migrations run once, under the lock)', async () => {
    const path = join(dir, 'fresh', 'ijwi.sqlite');
    const storeUrl = new URL('../../../src/store/db/database.ts', import.meta.url).href;
    const startAt = Date.now() + 2000;
    const child = `
      const { openDatabase } = await import(${JSON.stringify(storeUrl)});
      await new Promise((r) => setTimeout(r, Math.max(0, ${startAt} - Date.now())));
      const db = await openDatabase(${JSON.stringify(path)});
      process.stdout.write(String(await db.ping()));
      await db.close();`;
    const outputs = await Promise.all(
      [1, 2, 3].map(() =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { timeout: 60_000 }),
      ),
    );
    assert.deepEqual(
      outputs.map((o) => o.stdout),
      ['true', 'true', 'true'],
    );
  });

  // Two service instances sharing the file (the contract: "on one instance or many").
  it('never overdraw: 2 x 100 concurrent charges against a balance for 10', async () => {
    const path = join(dir, 'shared.sqlite');
    const db = await openDatabase(path);
    const billing = new BillingService(db);
    await db.accounts.insert(account);
    for (let i = 0; i < 5; i++) {
      const free = await billing.commitCharge(account.id, {
        tokens: 1,
        seconds: 1,
        characters: 10,
        language: 'en',
        requestId: `req_free${i}`,
        studio: false,
      });
      assert.ok(free.ok);
    }
    assert.ok((await billing.topUp(account.id, 290)).ok);
    await db.close();

    const storeUrl = new URL('../../../src/store/db/database.ts', import.meta.url).href;
    const billingUrl = new URL('../../../src/accounts/billing.ts', import.meta.url).href;
    // Both children start charging at the same wall-clock instant, after their start-up.
    const startAt = Date.now() + 2500;
    const child = `
      const { openDatabase } = await import(${JSON.stringify(storeUrl)});
      const { BillingService } = await import(${JSON.stringify(billingUrl)});
      const [path, accountId, tag, startAt] = process.argv.slice(1);
      const db = await openDatabase(path);
      const billing = new BillingService(db);
      await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
        billing.commitCharge(accountId, { tokens: 29, seconds: 5, characters: 2900, language: 'en',
          requestId: 'req_' + tag + i, studio: false })
          .then((r) => (r.ok ? 'ok' : r.code), (e) => 'error ' + e.message)));
      await db.close();
      process.stdout.write(JSON.stringify(results));`;
    const spawnChild = (tag: string) =>
      run(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', child, path, account.id, tag, String(startAt)],
        { timeout: 60_000 },
      );
    const outputs = await Promise.all([spawnChild('a'), spawnChild('b')]);
    const results = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    const counts = new Map<string, number>();
    for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(counts), { ok: 10, insufficient_tokens: 190 });

    const check = await openDatabase(path);
    try {
      const sum = await sql<{ total: number }>`select sum(tokens) as total from ledger`.execute(check.kysely);
      assert.equal(Number(sum.rows[0]?.total), 0);
    } finally {
      await check.close();
    }
  });
});
