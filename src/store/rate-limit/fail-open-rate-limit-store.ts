import type { Degraded } from '../check-result.ts';
import { withErrorCode } from '../error-code.ts';
import type { RateLimitDecision, RateLimitStore } from './rate-limit-store.ts';

/** A switch between the shared limits and the per-instance fallback, for a log line. */
export type FailOpenChange = { readonly shared: true } | { readonly shared: false; readonly reason: string };

/** Options for `FailOpenRateLimitStore`. */
export interface FailOpenOptions {
  /** After the shared store fails, how long to decide with the fallback before trying it again; default 1000 ms. */
  readonly retryAfterMs?: number;
  /** Called once per switch between the shared store and the fallback. */
  readonly onChange?: (change: FailOpenChange) => void;
  /** For tests: a clock in milliseconds. */
  readonly now?: () => number;
}

/**
 * The decided behaviour when the shared store is down: fail open. Requests keep getting decisions,
 * from a per-instance fallback (so each instance allows up to the limit on its own), and `check()`
 * reports the shared store's problem for health until it answers again. After a failure the
 * shared store is left alone for `retryAfterMs`, so an outage that makes each call wait for a
 * timeout costs one request per interval, not every request. Counts do not move between the two
 * stores: around a switch a key may get up to one extra window's worth.
 */
export class FailOpenRateLimitStore implements RateLimitStore {
  readonly #shared: RateLimitStore;
  readonly #fallback: RateLimitStore;
  readonly #retryAfterMs: number;
  readonly #onChange: (change: FailOpenChange) => void;
  readonly #now: () => number;
  /** Why the shared store is not in use, or undefined while it is. */
  #problem: string | undefined;
  #retryAt = 0;

  constructor(shared: RateLimitStore, fallback: RateLimitStore, options: FailOpenOptions = {}) {
    this.#shared = shared;
    this.#fallback = fallback;
    this.#retryAfterMs = options.retryAfterMs ?? 1000;
    this.#onChange = options.onChange ?? (() => {});
    this.#now = options.now ?? Date.now;
  }

  /** True while decisions come from the shared store. */
  get shared(): boolean {
    return this.#problem === undefined;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    if (this.#problem === undefined || this.#now() >= this.#retryAt) {
      try {
        const decision = await this.#shared.hit(key, limit, windowMs);
        this.#recovered();
        return decision;
      } catch (error) {
        this.#failed(withErrorCode('unreachable', error));
      }
    }
    return this.#fallback.hit(key, limit, windowMs);
  }

  /**
   * Asks the shared store itself, so health notices recovery even when no request arrives (a
   * not-ready instance may get no traffic). Degraded, not failed, while the fallback is in use:
   * requests are still limited, per instance.
   */
  async check(): Promise<true | Degraded> {
    let answer: true | string;
    try {
      const shared = await this.#shared.check();
      answer = shared === true || typeof shared === 'string' ? shared : shared.degraded;
    } catch (error) {
      answer = withErrorCode('unreachable', error);
    }
    if (answer === true) {
      this.#recovered();
      return true;
    }
    this.#failed(answer);
    return { degraded: `${answer}; per-instance limits in use` };
  }

  #failed(reason: string): void {
    this.#retryAt = this.#now() + this.#retryAfterMs;
    if (this.#problem !== undefined) return;
    this.#problem = reason;
    this.#onChange({ shared: false, reason });
  }

  #recovered(): void {
    if (this.#problem === undefined) return;
    this.#problem = undefined;
    this.#onChange({ shared: true });
  }
}
