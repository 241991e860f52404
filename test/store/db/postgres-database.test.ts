import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BillingService } from '../../../src/accounts/billing.ts';
import type { Database } from '../../../src/store/db/database.ts';
import { openDatabase } from '../../../src/store/db/open-database.ts';
import { openPostgresDatabase } from '../../../src/store/db/postgres-database.ts';
import { postgres, storeFactories } from '../../helpers/databases.ts';
import { unusedPort } from '../../helpers/ports.ts';
import { TcpProxy } from '../../helpers/tcp-proxy.ts';

// What only PostgreSQL does, or does differently: connection failures, the pool, and the account
// row lock that serialises billing across instances. Shared behaviour is in database.test.ts.

const account = {
  id: 'acct_pglock000000000001',
  name: 'Lock Test',
  email: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('openPostgresDatabase without a server', () => {
  it('fails fast, with the error code and no credentials, when the server cannot be reached', async () => {
    const port = await unusedPort();
    await assert.rejects(openPostgresDatabase(`postgres://ijwi:s3cret@127.0.0.1:${port}/ijwi`), {
      message: 'cannot reach the PostgreSQL database (ECONNREFUSED)',
    });
  });
});

describe('PostgreSQL', { skip: postgres.skip }, () => {
  const stores = storeFactories().find((s) => s.kind === 'postgres');
  const opened: Database[] = [];

  /** A new empty schema's URL, rewritten by `edit` (another host or port...). */
  async function freshUrl(edit: (url: URL) => void = () => {}): Promise<string> {
    assert.ok(stores);
    const source = await stores.create();
    assert.ok(source.kind === 'postgres');
    const url = new URL(source.url);
    edit(url);
    return url.href;
  }

  async function open(url: string): Promise<Database> {
    const db = await openDatabase({ kind: 'postgres', url });
    opened.push(db);
    return db;
  }

  before(() => stores?.assertReachable());
  after(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await stores?.dispose();
  });

  it('makes another instance wait while one holds the account lock (SELECT ... FOR UPDATE)', async () => {
    const url = await freshUrl();
    const first = await open(url);
    const second = await open(url);
    await first.accounts.insert(account);

    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holder = first.ledger.withAccountLock(account.id, async () => {
      entered();
      await released;
    });
    await inside;

    let charged = false;
    const charge = new BillingService(second)
      .commitCharge(account.id, {
        tokens: 1,
        seconds: 1,
        characters: 10,
        language: 'en',
        requestId: 'req_waits',
        studio: false,
      })
      .then((result) => {
        charged = true;
        return result;
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(charged, false, 'the second instance waited for the lock');
    release();
    await holder;
    const result = await charge;
    assert.ok(result.ok);
    assert.equal(result.entry?.kind, 'free_use');
  });

  it('keeps its schema apart from another schema on the same server', async () => {
    const a = await open(await freshUrl());
    const b = await open(await freshUrl());
    await a.accounts.insert(account);
    assert.equal(await b.accounts.find(account.id), undefined);
  });

  it('reports a lost server in ping without naming the host, and recovers when it returns', async () => {
    const target = new URL(postgres.url);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
    try {
      const url = await freshUrl((u) => {
        u.hostname = '127.0.0.1';
        u.port = String(proxy.port);
      });
      const db = await open(url);
      assert.equal(await db.ping(), true);

      // Cutting the pooled connections must not crash the process (the pool's error listener).
      await proxy.stop();
      const reason = await db.ping();
      assert.equal(typeof reason, 'string');
      assert.match(String(reason), /^query failed/);
      assert.ok(!String(reason).includes('127.0.0.1') && !String(reason).includes(String(proxy.port)));

      await proxy.start();
      assert.equal(await db.ping(), true);
    } finally {
      await proxy.stop();
    }
  });
});
