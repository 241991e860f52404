import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { MemoryRateLimitStore } from '../../../src/store/rate-limit/memory-rate-limit-store.ts';
import type { RateLimitStore } from '../../../src/store/rate-limit/rate-limit-store.ts';
import { RedisRateLimitStore } from '../../../src/store/rate-limit/redis-rate-limit-store.ts';
import { connectRedis } from '../../../src/store/redis-connection.ts';
import { deleteKeys, ready, redis, testKeyPrefix } from '../../helpers/redis.ts';

// The rate-limit contract (API contract, Rate limit: at most 30 accepted in any rolling 60-second
// window; refused requests do not count), on every store: in-process always, Redis when reachable.

const MINUTE = 60_000;

interface StoreTarget {
  readonly name: string;
  readonly skip: string | false;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** A store on `now` (milliseconds), or on the store's own clock when none is given. */
  make(now?: () => number): RateLimitStore;
}

function memoryTarget(): StoreTarget {
  return {
    name: 'memory',
    skip: false,
    async setUp() {},
    async tearDown() {},
    make: (now) => new MemoryRateLimitStore(now),
  };
}

function redisTarget(): StoreTarget {
  const prefix = testKeyPrefix();
  let client: Redis | undefined;
  return {
    name: 'redis',
    skip: redis.skip,
    async setUp() {
      redis.assertReachable();
      client = connectRedis(redis.url);
      await ready(client);
    },
    async tearDown() {
      if (client === undefined) return;
      await deleteKeys(client, prefix);
      client.disconnect();
    },
    make(now) {
      assert.ok(client, 'connected in setUp');
      return new RedisRateLimitStore(client, now === undefined ? { prefix } : { prefix, now });
    },
  };
}

let keyCounter = 0;
/** A key no other test has used, so tests on one store never share counts. */
function freshKey(): string {
  keyCounter++;
  return `key_${keyCounter}`;
}

for (const target of [memoryTarget(), redisTarget()]) {
  describe(`rate-limit store [${target.name}]`, { skip: target.skip }, () => {
    before(() => target.setUp());
    after(() => target.tearDown());

    it('accepts 30 in a window, refuses the 31st, and says when a slot frees up', async () => {
      let now = 1_000_000;
      const store = target.make(() => now);
      const key = freshKey();
      for (let i = 0; i < 30; i++) {
        const decision = await store.hit(key, 30, MINUTE);
        assert.equal(decision.allowed, true);
        assert.equal(decision.remaining, 29 - i);
        now += 1000;
      }
      const refused = await store.hit(key, 30, MINUTE);
      assert.deepEqual(refused, { allowed: false, limit: 30, remaining: 0, resetMs: MINUTE - 30_000 });
    });

    it('is a rolling window: slots come back one by one as old requests age out', async () => {
      let now = 5_000_000;
      const store = target.make(() => now);
      const key = freshKey();
      for (let i = 0; i < 30; i++) {
        await store.hit(key, 30, MINUTE);
        now += 1000;
      }
      now = 5_000_000 + MINUTE; // the first request has just left the window
      assert.equal((await store.hit(key, 30, MINUTE)).allowed, true);
      assert.equal((await store.hit(key, 30, MINUTE)).allowed, false);
      now += 1000; // the second one leaves too
      assert.equal((await store.hit(key, 30, MINUTE)).allowed, true);
    });

    it('does not count refused requests', async () => {
      let now = 9_000_000;
      const store = target.make(() => now);
      const key = freshKey();
      for (let i = 0; i < 2; i++) await store.hit(key, 2, MINUTE);
      for (let i = 0; i < 50; i++) await store.hit(key, 2, MINUTE);
      now += MINUTE;
      assert.equal((await store.hit(key, 2, MINUTE)).allowed, true);
    });

    it('keeps keys apart and never accepts more than the limit under concurrent hits', async () => {
      const store = target.make();
      const odd = freshKey();
      const even = freshKey();
      const decisions = await Promise.all(
        Array.from({ length: 100 }, (_, i) => store.hit(i % 2 ? odd : even, 30, MINUTE)),
      );
      assert.equal(decisions.filter((d) => d.allowed).length, 60);
    });

    it('runs on its own clock by default', async () => {
      const store = target.make();
      const key = freshKey();
      assert.equal((await store.hit(key, 2, 300)).allowed, true);
      assert.equal((await store.hit(key, 2, 300)).allowed, true);
      const refused = await store.hit(key, 2, 300);
      assert.equal(refused.allowed, false);
      assert.ok(refused.resetMs > 0 && refused.resetMs <= 300, `resetMs ${refused.resetMs}`);
      await new Promise((resolve) => setTimeout(resolve, refused.resetMs + 20));
      assert.equal((await store.hit(key, 2, 300)).allowed, true);
    });

    it('answers check', async () => {
      assert.equal(await target.make().check(), true);
    });
  });
}
