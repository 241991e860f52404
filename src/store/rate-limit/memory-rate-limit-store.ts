import type { RateLimitDecision, RateLimitStore } from './rate-limit-store.ts';

/**
 * The in-process rolling window: for each key, the times of the requests accepted in the
 * window (at most `limit` of them, so memory is bounded by keys x limit). Exact, not an
 * approximation: a request is accepted only if fewer than `limit` were accepted in the last
 * `windowMs`. Idle keys are dropped when their window has passed.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #accepted = new Map<string, number[]>();
  readonly #now: () => number;
  #lastSweep = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.#now();
    this.#sweep(now, windowMs);
    const times = (this.#accepted.get(key) ?? []).filter((t) => t > now - windowMs);
    const allowed = times.length < limit;
    if (allowed) times.push(now);
    this.#accepted.set(key, times);
    const oldest = times[0] ?? now;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - times.length),
      resetMs: Math.max(0, oldest + windowMs - now),
    };
  }

  async check(): Promise<true> {
    return true;
  }

  #sweep(now: number, windowMs: number): void {
    if (now - this.#lastSweep < windowMs) return;
    this.#lastSweep = now;
    for (const [key, times] of this.#accepted) {
      if ((times.at(-1) ?? 0) <= now - windowMs) this.#accepted.delete(key);
    }
  }
}
