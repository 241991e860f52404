import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import {
  type FailOpenChange,
  FailOpenRateLimitStore,
} from '../../../src/store/rate-limit/fail-open-rate-limit-store.ts';
import { MemoryRateLimitStore } from '../../../src/store/rate-limit/memory-rate-limit-store.ts';
import type { RateLimitDecision, RateLimitStore } from '../../../src/store/rate-limit/rate-limit-store.ts';
import { RedisRateLimitStore } from '../../../src/store/rate-limit/redis-rate-limit-store.ts';
import { connectRedis } from '../../../src/store/redis-connection.ts';
import { deleteKeys, ready, redis, testKeyPrefix } from '../../helpers/redis.ts';
import { TcpProxy } from '../../helpers/tcp-proxy.ts';

// The decided design: "Redis down means the rate limit falls back to per-instance limits and
// health reports it (fail open)".

const MINUTE = 60_000;

/** A shared store that is up or down at the test's command, counting the calls it gets. */
class SwitchableStore implements RateLimitStore {
  up = true;
  hits = 0;
  readonly #inner = new MemoryRateLimitStore();

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    this.hits++;
    if (!this.up)
      throw Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6379'), { code: 'ECONNREFUSED' });
    return this.#inner.hit(key, limit, windowMs);
  }

  async check(): Promise<true | string> {
    return this.up ? true : 'redis unreachable (ECONNREFUSED)';
  }
}

describe('FailOpenRateLimitStore', () => {
  it('decides per instance while the shared store is down, says so, and goes back when it returns', async () => {
    let now = 0;
    const shared = new SwitchableStore();
    const changes: FailOpenChange[] = [];
    const store = new FailOpenRateLimitStore(shared, new MemoryRateLimitStore(() => now), {
      retryAfterMs: 1000,
      now: () => now,
      onChange: (change) => changes.push(change),
    });
    assert.equal((await store.hit('k', 2, MINUTE)).remaining, 1);
    assert.equal(await store.check(), true);

    shared.up = false;
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await store.hit('k', 2, MINUTE));
    assert.deepEqual(
      decisions.map((d) => d.allowed),
      [true, true, false],
      'the in-process limiter decides, with its own counts',
    );
    assert.equal(shared.hits, 2, 'the shared store is not retried within retryAfterMs');
    assert.equal(store.shared, false);
    const reason = await store.check();
    assert.deepEqual(reason, { degraded: 'redis unreachable (ECONNREFUSED); per-instance limits in use' });
    assert.ok(!JSON.stringify(reason).includes('10.1.2.3'));

    now += 1000;
    assert.equal((await store.hit('k', 2, MINUTE)).allowed, false, 'retried, still down, still decided');
    assert.equal(shared.hits, 3);

    shared.up = true;
    now += 1000;
    const back = await store.hit('k', 2, MINUTE);
    assert.deepEqual(
      { allowed: back.allowed, remaining: back.remaining },
      { allowed: true, remaining: 0 },
      'the shared store again, with its own count: the first hit and this one',
    );
    assert.equal(store.shared, true);
    assert.equal(await store.check(), true);
    assert.deepEqual(changes, [{ shared: false, reason: 'unreachable (ECONNREFUSED)' }, { shared: true }]);
  });

  it('notices recovery in check(), without traffic', async () => {
    const shared = new SwitchableStore();
    const store = new FailOpenRateLimitStore(shared, new MemoryRateLimitStore(), { retryAfterMs: 60_000 });
    shared.up = false;
    await store.hit('k', 30, MINUTE);
    assert.notEqual(await store.check(), true);
    shared.up = true;
    assert.equal(await store.check(), true);
    await store.hit('k', 30, MINUTE);
    assert.equal(shared.hits, 2, 'the shared store is used again at once');
  });
});

describe('FailOpenRateLimitStore over Redis', { skip: redis.skip }, () => {
  const prefix = testKeyPrefix();
  let proxy: TcpProxy | undefined;
  let direct: Redis | undefined;
  let viaProxy: Redis | undefined;

  before(async () => {
    redis.assertReachable();
    const target = new URL(redis.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    direct = connectRedis(redis.url);
    const url = new URL(redis.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    viaProxy = connectRedis(url.href, { maxReconnectDelayMs: 50 });
    await Promise.all([ready(direct), ready(viaProxy)]);
  });

  after(async () => {
    viaProxy?.disconnect();
    await proxy?.stop();
    if (direct !== undefined) await deleteKeys(direct, prefix);
    direct?.disconnect();
  });

  it('keeps deciding when Redis goes away, reports it, and returns to Redis when it is back', async () => {
    assert.ok(viaProxy && direct && proxy);
    const store = new FailOpenRateLimitStore(
      new RedisRateLimitStore(viaProxy, { prefix }),
      new MemoryRateLimitStore(),
      { retryAfterMs: 50 },
    );
    const counted = () => direct?.zcard(`${prefix}k`);

    for (let i = 0; i < 3; i++) assert.equal((await store.hit('k', 30, MINUTE)).allowed, true);
    assert.equal(await counted(), 3, 'counted in Redis');
    assert.equal(await store.check(), true);

    await proxy.stop();
    const fallback = await store.hit('k', 30, MINUTE);
    assert.deepEqual(
      { allowed: fallback.allowed, remaining: fallback.remaining },
      { allowed: true, remaining: 29 },
      'decided in process, from its own empty window',
    );
    const degraded = await store.check();
    assert.ok(degraded !== true);
    assert.match(degraded.degraded, /^redis unreachable.*; per-instance limits in use$/);
    assert.equal(store.shared, false);

    await proxy.start();
    const deadline = Date.now() + 5000;
    while ((await store.check()) !== true) {
      assert.ok(Date.now() < deadline, 'reconnected within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const back = await store.hit('k', 30, MINUTE);
    assert.equal(back.remaining, 26, 'Redis again: its 3 earlier hits plus this one');
    assert.equal(await counted(), 4);
    assert.equal(store.shared, true);
  });
});
