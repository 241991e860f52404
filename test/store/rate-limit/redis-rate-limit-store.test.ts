import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../../src/store/rate-limit/redis-rate-limit-store.ts';
import { connectRedis } from '../../../src/store/redis-connection.ts';
import { deleteKeys, ready, redis, testKeyPrefix } from '../../helpers/redis.ts';

// What only the shared store does: one limit for every instance, and keys that clean themselves up.

describe('RedisRateLimitStore', { skip: redis.skip }, () => {
  const prefix = testKeyPrefix();
  const clients: Redis[] = [];

  async function client(): Promise<Redis> {
    const c = connectRedis(redis.url);
    clients.push(c);
    await ready(c);
    return c;
  }

  before(() => redis.assertReachable());
  after(async () => {
    const first = clients[0];
    if (first !== undefined) await deleteKeys(first, prefix);
    for (const c of clients) c.disconnect();
  });

  it('shares one limit between instances: 30 of 100 concurrent hits from two of them', async () => {
    const a = new RedisRateLimitStore(await client(), { prefix });
    const b = new RedisRateLimitStore(await client(), { prefix });
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).hit('shared', 30, 60_000)),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 30);
    assert.deepEqual(decisions.map((d) => d.remaining).sort((x, y) => x - y)[0], 0);
  });

  it('keeps each key only as long as its window, under the configured prefix', async () => {
    const c = await client();
    const store = new RedisRateLimitStore(c, { prefix });
    await store.hit('expiring', 5, 10_000);
    const ttl = await c.pttl(`${prefix}expiring`);
    assert.ok(ttl > 0 && ttl <= 10_000, `ttl ${ttl}`);
  });
});
