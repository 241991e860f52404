import { type BillingMetrics, noBillingMetrics } from '../accounts/billing-metrics.ts';
import type { CallMetrics } from '../calls/call-services.ts';
import type { ClauseCacheStats } from '../speech/cache/clause-cache.ts';
import type { EngineId } from '../speech/engines/engine.ts';
import { noPoolMetrics, type PoolMetrics } from '../speech/pool/pool-metrics.ts';
import type { NormalizationMetrics } from '../speech/text/normalization-failures.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';

// What the service records about itself, as events of its own parts: the pool, billing, the
// normaliser, the transports and the health checks call these methods where the thing happens
// (the pool's, billing's and the normaliser's ports are declared beside them, in `speech/` and
// `accounts/`, so the core never imports this folder), and only the
// Prometheus recorder (`prometheus.ts`) knows metric names and labels. Every argument is a value
// from a fixed set (a route pattern, a language or engine code, a path, a status): nothing a
// client typed, no key, account id or e-mail ever reaches a label.

/** The pool as its gauges read it, when scraped. */
export interface PoolState {
  /** Clauses waiting for a worker. */
  readonly queued: number;
  /** Workers running a clause now. */
  readonly running: number;
  readonly size: number;
  /** Calls in flight on an engine that takes a bounded number (the neural voices); 0 for the others. */
  callsOn(engine: EngineId): number;
  /** The calls an engine takes at once; undefined for an engine that takes every call. */
  callLimit(engine: EngineId): number | undefined;
}

/** One health check as its gauges show it. */
export interface HealthState {
  /** The check's name in the health body (`engine`, `database`, `rate_limit`, `storage`...). */
  readonly check: string;
  /** True when it lets the instance take requests (ok or degraded). */
  readonly serving: boolean;
  /** True while it serves in a reduced mode (the shared rate limit down, per-instance limits in use). */
  readonly degraded: boolean;
}

/** What the transports record about the calls they carry. */
/** The HTTP side, and the calls' port (`calls/call-services.ts`). */
export interface TransportMetrics extends CallMetrics {
  /**
   * One HTTP request answered: the pattern of its route (undefined when no route matched), the
   * status sent (undefined when the client left before one was), and the language it spoke in.
   */
  httpRequest(
    route: string | undefined,
    status: number | undefined,
    language: LanguageCode | undefined,
  ): void;
}

/** Gauges read when metrics are scraped, from the parts that know the state. */
export interface ObservedMetrics {
  observePool(pool: PoolState): void;
  observeHealth(read: () => Promise<readonly HealthState[]>): void;
  /** The clause cache's counts (`ClauseCache.stats`), as the health body shows them. */
  observeClauseCache(read: () => ClauseCacheStats): void;
}

/** Everything the service records; `noMetrics` when metrics are off. */
export interface Metrics
  extends PoolMetrics,
    BillingMetrics,
    NormalizationMetrics,
    TransportMetrics,
    ObservedMetrics {}

const ended = (): void => {};

/** Records nothing: the default when no `METRICS_TOKEN` or `METRICS_PORT` is set, and in tests of other parts. */
export const noMetrics: Metrics = {
  ...noPoolMetrics,
  ...noBillingMetrics,
  normalizationFailed() {},
  httpRequest() {},
  callStarted: () => ended,
  firstAudio() {},
  audioDelivered() {},
  rateLimited() {},
  observePool() {},
  observeHealth() {},
  observeClauseCache() {},
};

/** The metrics as a scraper reads them: Prometheus's text exposition format. */
export interface MetricsExposition {
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}
