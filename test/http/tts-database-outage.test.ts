import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import { DictionaryService } from '../../src/accounts/dictionaries.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import type { Database } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { LocalFileStore } from '../../src/store/files/local-file-store.ts';
import { MemoryRateLimitStore } from '../../src/store/rate-limit/memory-rate-limit-store.ts';
import { StoreUnavailableError } from '../../src/store/store-unavailable.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';
import { postgres, storeFactories } from '../helpers/databases.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import {
  CONTRACT_LIMITS,
  expectError,
  listenOnLoopback,
  PUBLIC_BASE_URL,
  startTestPool,
  withKey,
} from '../helpers/tts-fixture.ts';

// The decided behaviour when the database is down: fail closed. Every TTS request gets 503
// `not_ready` (with Retry-After), whether the database fails at authentication, at the precheck or
// at the commit after synthesis; in the last case the audio is never sent (the file is deleted, the
// stream never starts). When the database answers again, requests succeed without a restart.
// PostgreSQL sits behind a TCP proxy that the test cuts and restores.

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';
const body = JSON.stringify({ input: 'Hello there.', language: 'en' });

describe('TTS with the database down', { skip: postgres.skip }, () => {
  const stores = storeFactories().find((s) => s.kind === 'postgres');
  const target = new URL(postgres.url);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  let pool: EnginePool;
  let db: Database;
  let app: FastifyInstance;
  let dir: string;
  let key: string;
  let accountId: string;
  /** Set by a test: cut the database just before the charge is committed. */
  let cutBeforeCommit = false;

  before(async () => {
    assert.ok(stores);
    stores.assertReachable();
    await proxy.start();
    const source = await stores.create();
    assert.ok(source.kind === 'postgres');
    const url = new URL(source.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    db = await openDatabase({ kind: 'postgres', url: url.href });
    pool = await startTestPool(1);
    dir = await mkdtemp(join(tmpdir(), 'ijwi-outage-'));
    const files = await LocalFileStore.create({ dir });
    const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
    const billing = new BillingService({ accounts: db.accounts, ledger: db.ledger });
    app = await buildTestApp({
      healthChecks: { engine: () => true, database: () => db.ping() },
      limits: CONTRACT_LIMITS,
      files,
      tts: {
        pool: () => pool,
        accounts,
        billing: {
          precheck: (...args) => billing.precheck(...args),
          commitCharge: async (...args) => {
            if (cutBeforeCommit) await proxy.stop();
            return billing.commitCharge(...args);
          },
          refundCharge: (...args) => billing.refundCharge(...args),
          balance: (...args) => billing.balance(...args),
          recordDuration: (...args) => billing.recordDuration(...args),
        },
        charsPerToken: 100,
        rateLimit: new MemoryRateLimitStore(),
        publicBaseUrl: PUBLIC_BASE_URL,
        supportEmail: null,
        lexicons: new DictionaryService(db.dictionaries),
      },
    });
    const created = await accounts.createAccount({ name: 'Outage clinic' });
    assert.ok(created.ok);
    accountId = created.account.id;
    const made = await accounts.createKey(accountId);
    assert.ok(made.ok);
    key = made.key;
  });

  after(async () => {
    await app?.close();
    await pool?.close();
    await proxy.start().catch(() => {});
    await db?.close();
    await proxy.stop();
    await stores?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const ledgerSize = async () => (await db.kysely.selectFrom('ledger').select('id').execute()).length;

  it('answers 503 not_ready with Retry-After on both endpoints, and health says not_ready', async () => {
    await proxy.stop();
    try {
      for (const url of [FILE, STREAM]) {
        const response = await app.inject({ method: 'POST', url, headers: withKey(key), payload: body });
        expectError(response, 503, 'not_ready');
        assert.equal(response.headers['retry-after'], '5');
        assert.doesNotMatch(response.body, /127\.0\.0\.1|ECONNREFUSED|postgres/);
      }
      const health = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
      assert.equal(health.statusCode, 503);
      assert.match(health.json().checks.database, /^query failed/);
    } finally {
      await proxy.start();
    }
    assert.deepEqual(await readdir(dir), []);
  });

  it('recovers without a restart once the database answers again', async () => {
    const response = await app.inject({ method: 'POST', url: FILE, headers: withKey(key), payload: body });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal((await readdir(dir)).length, 1);
    const health = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(health.statusCode, 200);
  });

  it('never sends audio whose charge did not commit: the file is deleted, the stream never starts', async () => {
    const filesBefore = (await readdir(dir)).sort();
    const entriesBefore = await ledgerSize();
    cutBeforeCommit = true;
    try {
      for (const url of [FILE, STREAM]) {
        const response = await app.inject({ method: 'POST', url, headers: withKey(key), payload: body });
        expectError(response, 503, 'not_ready');
        assert.equal(response.headers['x-voice-tokens-charged'], undefined);
        await proxy.start();
      }
    } finally {
      cutBeforeCommit = false;
      await proxy.start().catch(() => {});
    }
    assert.deepEqual((await readdir(dir)).sort(), filesBefore, 'the uncharged file was deleted');
    assert.equal(await ledgerSize(), entriesBefore, 'nothing was charged');
    const again = await app.inject({ method: 'POST', url: STREAM, headers: withKey(key), payload: body });
    assert.equal(again.statusCode, 200);
    assert.equal(await ledgerSize(), entriesBefore + 1);
  });

  it('ends a live context whose charge cannot commit with not_ready, before any audio', async () => {
    const client = await LiveClient.connect(await listenOnLoopback(app), withKey(key));
    const entriesBefore = await ledgerSize();
    cutBeforeCommit = true;
    try {
      client.send({
        type: 'text',
        context_id: 'c',
        text: 'Hello there.',
        language: 'en',
        format: 'mulaw_8k',
      });
      client.send({ type: 'end', context_id: 'c' });
      const ended = await client.ended('c');
      assert.deepEqual({ type: ended.type, code: ended.code }, { type: 'error', code: 'not_ready' });
      assert.deepEqual(client.of('c', 'audio'), []);
    } finally {
      cutBeforeCommit = false;
      await proxy.start();
      client.socket.close();
    }
    assert.equal(await ledgerSize(), entriesBefore, 'nothing was charged');
  });

  it('reports the outage as a StoreUnavailableError and a bad query as itself', async () => {
    await proxy.stop();
    try {
      await assert.rejects(db.accounts.find(accountId), (error: unknown) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.equal(error.store, 'database');
        return true;
      });
    } finally {
      await proxy.start();
    }
    await assert.rejects(
      db.accounts.insert({ id: accountId, name: 'Twin', email: null, createdAt: new Date().toISOString() }),
      (error: unknown) => !(error instanceof StoreUnavailableError),
    );
  });
});
