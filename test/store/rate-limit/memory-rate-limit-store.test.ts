import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryRateLimitStore } from '../../../src/store/rate-limit/memory-rate-limit-store.ts';

const MINUTE = 60_000;

describe('MemoryRateLimitStore', () => {
  it('accepts 30 in a window, refuses the 31st, and says when a slot frees up', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 30; i++) {
      const decision = await store.hit('key_a', 30, MINUTE);
      assert.equal(decision.allowed, true);
      assert.equal(decision.remaining, 29 - i);
      now += 1000;
    }
    const refused = await store.hit('key_a', 30, MINUTE);
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    assert.equal(refused.resetMs, MINUTE - 30_000);
  });

  it('is a rolling window: slots come back one by one as old requests age out', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 30; i++) {
      await store.hit('k', 30, MINUTE);
      now += 1000;
    }
    now = MINUTE; // the first request (t=0) has just left the window
    assert.equal((await store.hit('k', 30, MINUTE)).allowed, true);
    assert.equal((await store.hit('k', 30, MINUTE)).allowed, false);
    now = MINUTE + 1000; // the second one (t=1000) leaves too
    assert.equal((await store.hit('k', 30, MINUTE)).allowed, true);
  });

  it('does not count refused requests', async () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now);
    for (let i = 0; i < 2; i++) await store.hit('k', 2, MINUTE);
    for (let i = 0; i < 50; i++) await store.hit('k', 2, MINUTE);
    now = MINUTE;
    assert.equal((await store.hit('k', 2, MINUTE)).allowed, true);
  });

  it('keeps keys apart and never accepts more than the limit under concurrent hits', async () => {
    const store = new MemoryRateLimitStore();
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => store.hit(i % 2 ? 'odd' : 'even', 30, MINUTE)),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 60);
  });
});
