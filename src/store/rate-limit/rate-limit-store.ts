import type { CheckResult } from '../check-result.ts';

/** The outcome of counting one request against a rolling-window limit. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests still allowed in the window after this one. */
  readonly remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees up). */
  readonly resetMs: number;
}

/**
 * Counts requests per key in a rolling window: at most `limit` accepted in any `windowMs`.
 * Refused requests are not counted. Implementations: in-process (the embedded default) and,
 * for several instances, a shared store.
 */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** For health: true when the store answers; degraded while a fallback decides instead. */
  check(): Promise<CheckResult>;
}
