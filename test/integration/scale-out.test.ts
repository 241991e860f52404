import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import { SessionService } from '../../src/accounts/sessions.ts';
import { UserService } from '../../src/accounts/users.ts';
import type { Database } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { webRepositories } from '../../src/store/db/web-repositories.ts';
import { postgres, storeFactories } from '../helpers/databases.ts';
import { deleteKeys, redis, testKeyPrefix } from '../helpers/redis.ts';
import { type S3TestServer, startS3Server } from '../helpers/s3-server.ts';
import { type ServiceProcess, startService } from '../helpers/service-process.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

// Two service processes on their own ports, sharing one PostgreSQL schema, one Redis namespace and
// one S3-compatible bucket for generated files, as two instances behind a load balancer would.
// The S3 server runs in this process, on a free port. PostgreSQL and Redis
// are reached through TCP proxies, so an outage is played by cutting a proxy, never by stopping the
// real servers (other test files use them at the same time). CHARS_PER_TOKEN=1 lets a short text
// cost a chosen number of tokens: a 29-character input costs 29, and a 290-token top-up (the
// minimum is 289) pays for exactly 10 of them.

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';
const ENDPOINTS = [FILE, STREAM] as const;
const TWENTY_NINE = 'Good morning, this is a test.';

interface Reply {
  readonly status: number;
  readonly requestId: string;
  readonly instance: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

const url = (base: string, path: string) => new URL(path, base).href;

describe('two instances sharing PostgreSQL, Redis and an S3 bucket', {
  skip: postgres.skip || redis.skip,
}, () => {
  const stores = storeFactories().find((s) => s.kind === 'postgres');
  const pgTarget = new URL(postgres.url);
  const redisTarget = new URL(redis.url);
  const pgProxy = new TcpProxy(pgTarget.hostname, Number(pgTarget.port || 5432));
  const redisProxy = new TcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
  const prefix = testKeyPrefix();
  let dataDir: string;
  let s3: S3TestServer;
  let db: Database;
  let direct: Redis;
  let services: ServiceProcess[] = [];
  let bases: string[] = [];
  let accounts: AccountService;
  let billing: BillingService;

  before(async () => {
    assert.ok(stores);
    stores.assertReachable();
    redis.assertReachable();
    await Promise.all([pgProxy.start(), redisProxy.start()]);
    const source = await stores.create();
    assert.ok(source.kind === 'postgres');
    // The test itself reaches the database directly, so it can read the ledger during an outage.
    db = await openDatabase(source);
    accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
    billing = new BillingService({ accounts: db.accounts, ledger: db.ledger });
    direct = new Redis(redis.url);
    dataDir = await mkdtemp(join(tmpdir(), 'ijwi-scale-'));
    s3 = await startS3Server();
    const viaProxy = new URL(source.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(pgProxy.port);
    const env = {
      DATABASE_URL: viaProxy.href,
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      REDIS_PREFIX: prefix,
      ...s3.env('generated/'),
      CHARS_PER_TOKEN: '1',
      LOG_LEVEL: 'info',
    };
    // Each instance has a folder of its own: only the bucket is shared.
    services = [0, 1].map((i) => startService({ ...env, DATA_DIR: join(dataDir, `instance-${i}`) }));
    bases = await Promise.all(services.map((s) => s.ready()));
  });

  after(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await db?.close();
    await stores?.dispose();
    if (direct) {
      await deleteKeys(direct, prefix);
      direct.disconnect();
    }
    await Promise.all([pgProxy.stop(), redisProxy.stop()]);
    await s3?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A new account with `keys` keys and, when given, a top-up. */
  async function newAccount(keys = 1, topUp?: number) {
    const created = await accounts.createAccount({ name: 'Scale-out clinic' });
    assert.ok(created.ok);
    const accountId = created.account.id;
    const made: { key: string; id: string }[] = [];
    for (let i = 0; i < keys; i++) {
      const key = await accounts.createKey(accountId);
      assert.ok(key.ok);
      made.push({ key: key.key, id: key.record.id });
    }
    if (topUp !== undefined) assert.ok((await billing.topUp(accountId, topUp)).ok);
    return { accountId, keys: made };
  }

  /** One TTS request through instance `instance`, body read to its end. */
  async function speak(instance: number, path: string, key: string, input = 'Hi.'): Promise<Reply> {
    const base = bases[instance];
    assert.ok(base);
    const response = await fetch(url(base, path), {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input, language: 'en' }),
    });
    const body = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      requestId: String(response.headers.get('x-request-id')),
      instance,
      headers: response.headers,
      body,
    };
  }

  async function ledgerOf(accountId: string) {
    const result = await billing.listLedger(accountId, { limit: 1000 });
    assert.ok(result.ok);
    return result.entries;
  }

  /** The generated files in the shared bucket. */
  async function generatedFiles(): Promise<string[]> {
    const listed = await s3
      .client()
      .send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'generated/' }));
    return (listed.Contents ?? []).flatMap((o) => o.Key ?? []);
  }

  const statuses = (replies: readonly Reply[]) => {
    const counts: Record<number, number> = {};
    for (const reply of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1;
    return counts;
  };

  /** Health of every instance: status codes and the named check. */
  async function health(check: string) {
    return Promise.all(
      bases.map(async (base) => {
        const response = await fetch(url(base, '/api/v1/health.php'));
        const body = (await response.json()) as { checks: Record<string, string> };
        return { status: response.status, check: body.checks[check] ?? 'missing' };
      }),
    );
  }

  async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, ms = 10_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('serves through one instance a file that the other made, with HEAD and Range', async () => {
    const { keys } = await newAccount();
    const made = await speak(0, FILE, keys[0]?.key ?? '');
    assert.equal(made.status, 200, made.body.toString());
    const { output_url: outputUrl } = JSON.parse(made.body.toString()) as { output_url: string };
    const path = new URL(outputUrl).pathname;
    const [viaMaker, viaOther] = await Promise.all(bases.map((base) => fetch(url(base, path))));
    assert.ok(viaMaker && viaOther);
    assert.equal(viaOther.status, 200);
    assert.equal(viaOther.headers.get('content-type'), 'audio/wav');
    const bytes = Buffer.from(await viaOther.arrayBuffer());
    assert.ok(bytes.length > 44);
    assert.deepEqual(bytes, Buffer.from(await viaMaker.arrayBuffer()));
    const head = await fetch(url(bases[1] ?? '', path), { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), String(bytes.length));
    const range = await fetch(url(bases[1] ?? '', path), { headers: { range: 'bytes=0-43' } });
    assert.equal(range.status, 206);
    assert.deepEqual(Buffer.from(await range.arrayBuffer()), bytes.subarray(0, 44));
  });

  it('accepts exactly 30 of 40 requests with one key spread over both instances', async () => {
    const { accountId, keys } = await newAccount(1, 290);
    const key = keys[0]?.key ?? '';
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => speak(i % 2, ENDPOINTS[Math.floor(i / 2) % 2] ?? FILE, key)),
    );
    assert.deepEqual(statuses(replies), { 200: 30, 429: 10 });
    for (const reply of replies.filter((r) => r.status === 429)) {
      assert.ok(Number(reply.headers.get('retry-after')) > 0);
    }
    assert.ok(new Set(replies.filter((r) => r.status === 200).map((r) => r.instance)).size === 2);
    const charged = (await ledgerOf(accountId)).filter((e) => e.kind !== 'top_up');
    assert.equal(charged.length, 30);
  });

  it('lets exactly 10 paid and 5 free of 200 concurrent requests through, and the ledger adds up', async () => {
    const { accountId, keys } = await newAccount(10, 290);
    const filesBefore = (await generatedFiles()).length;
    const replies = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        speak(i % 2, ENDPOINTS[Math.floor(i / 2) % 2] ?? FILE, keys[i % 10]?.key ?? '', TWENTY_NINE),
      ),
    );
    assert.deepEqual(statuses(replies), { 200: 15, 402: 185 });
    const ledger = await ledgerOf(accountId);
    const byKind = (kind: string) => ledger.filter((e) => e.kind === kind);
    assert.equal(byKind('free_use').length, 5, 'the 5 free generations, used once each across both');
    assert.equal(byKind('charge').length, 10);
    assert.ok(byKind('charge').every((e) => e.tokens === -29));
    assert.equal(
      ledger.reduce((sum, e) => sum + e.tokens, 0),
      0,
    );
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.deepEqual({ balance: balance.balance, free: balance.freeUsesRemaining }, { balance: 0, free: 0 });
    // No audio without a charge: every 200 has exactly one ledger entry, and only the paid files exist.
    const ok = replies.filter((r) => r.status === 200);
    assert.deepEqual(ok.map((r) => r.requestId).sort(), ledger.flatMap((e) => e.requestId ?? []).sort());
    assert.equal(
      (await generatedFiles()).length - filesBefore,
      ok.filter((r) => r.headers.get('content-type')?.startsWith('application/json')).length,
    );
    for (const refused of replies.filter((r) => r.status === 402)) {
      assert.equal(JSON.parse(refused.body.toString()).error.code, 'insufficient_tokens');
    }
  });

  it('refuses on the other instance, within 1 s, a key revoked through the dashboard of one', async () => {
    const { users: userRepository, sessions: sessionRepository } = webRepositories(db.kysely);
    const signedUp = await new UserService({ users: userRepository }).signUp({
      name: 'Revoking clinic',
      email: `revoke-${Date.now()}@example.test`,
      password: 'correct horse battery staple',
    });
    assert.ok(signedUp.ok);
    const { token, session } = await new SessionService({ sessions: sessionRepository }).start(signedUp.user);
    const key = await accounts.createKey(signedUp.account.id);
    assert.ok(key.ok);
    assert.equal((await speak(1, STREAM, key.key)).status, 200);

    const revoked = await fetch(url(bases[0] ?? '', `/dashboard/keys/${key.record.id}/revoke`), {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `ijwi_session=${token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `_csrf=${encodeURIComponent(session.csrfToken)}`,
    });
    assert.equal(revoked.status, 303);
    assert.match(String(revoked.headers.get('location')), /notice=key_revoked/);
    const at = Date.now();
    const refused = await waitFor(
      'the other instance refuses the key',
      () => speak(1, STREAM, key.key),
      (reply) => reply.status === 401,
      1000,
    );
    assert.equal(refused.status, 401);
    assert.ok(Date.now() - at < 1000, `refused after ${Date.now() - at} ms`);
  });

  it('keeps serving with per-instance limits while Redis is away, says so, and shares again after', async () => {
    const { accountId, keys } = await newAccount(1, 290);
    const key = keys[0]?.key ?? '';
    const rateKey = `${prefix}rate:${keys[0]?.id}`;
    await redisProxy.stop();
    try {
      const during = await Promise.all([0, 1, 0, 1].map((i, n) => speak(i, ENDPOINTS[n % 2] ?? FILE, key)));
      assert.deepEqual(statuses(during), { 200: 4 });
      const states = await health('rate_limit');
      for (const state of states) {
        assert.equal(state.status, 200, 'fail open: still ready');
        assert.match(state.check, /^degraded: redis unreachable.*per-instance limits in use$/);
      }
      assert.equal(await direct.exists(rateKey), 0, 'nothing reached Redis');
    } finally {
      await redisProxy.start();
    }
    await waitFor(
      'both instances see Redis again',
      () => health('rate_limit'),
      (states) => states.every((s) => s.status === 200 && s.check === 'ok'),
    );
    const back = await Promise.all([0, 1].map((i) => speak(i, STREAM, key)));
    assert.deepEqual(statuses(back), { 200: 2 });
    assert.equal(await direct.zcard(rateKey), 2, 'counted in Redis again, by both');
    const ledger = await ledgerOf(accountId);
    assert.equal(new Set(ledger.map((e) => e.requestId)).size, ledger.length, 'nothing charged twice');
    assert.equal(ledger.filter((e) => e.kind !== 'top_up').length, 6);
  });

  it('answers 503 while the database is unreachable, charges nothing and sends no audio, and recovers', async () => {
    const { accountId, keys } = await newAccount(1, 290);
    const key = keys[0]?.key ?? '';
    const ledgerBefore = (await ledgerOf(accountId)).length;
    const filesBefore = (await generatedFiles()).sort();
    await pgProxy.stop();
    try {
      const during = await Promise.all([0, 1, 0, 1].map((i, n) => speak(i, ENDPOINTS[n % 2] ?? FILE, key)));
      for (const reply of during) {
        assert.equal(reply.status, 503);
        assert.equal(JSON.parse(reply.body.toString()).error.code, 'not_ready');
        assert.equal(reply.headers.get('retry-after'), '5');
      }
      const states = await health('database');
      for (const state of states) {
        assert.equal(state.status, 503, 'fail closed: not ready');
        assert.match(state.check, /^query failed/);
      }
      assert.equal((await ledgerOf(accountId)).length, ledgerBefore, 'nothing charged');
      assert.deepEqual((await generatedFiles()).sort(), filesBefore, 'no audio made available');
    } finally {
      await pgProxy.start();
    }
    await waitFor(
      'both instances reach the database again',
      () => health('database'),
      (states) => states.every((s) => s.status === 200),
    );
    const back = await Promise.all([0, 1].map((i) => speak(i, FILE, key)));
    assert.deepEqual(statuses(back), { 200: 2 });
    const ledger = await ledgerOf(accountId);
    assert.equal(ledger.length, ledgerBefore + 2);
    assert.equal(new Set(ledger.map((e) => e.requestId)).size, ledger.length, 'nothing charged twice');
  });
});
