import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ChargeKind, RefundKind } from '../accounts/billing-metrics.ts';
import type { SpeechPath } from '../calls/call-services.ts';
import type { ClauseCacheStats } from '../speech/cache/clause-cache.ts';
import type { EngineId } from '../speech/engines/engine.ts';
import { engines } from '../speech/engines/registry.ts';
import type { LanguageCode } from '../speech/text/verbalizer.ts';
import { languages } from '../speech/voices/voices.ts';
import type { HealthState, Metrics, PoolState } from './metrics.ts';

// The one place that names metrics and decides their labels (see README.md for the list). Each
// label value is checked against its fixed set here, whatever the caller passed, so no series
// can be made from what a client sent. Loaded only when metrics are on (`main.ts`).

const ENGINE_IDS: ReadonlySet<string> = new Set(Object.keys(engines));
const LANGUAGE_CODES: ReadonlySet<string> = new Set(languages.map((l) => l.code));
/** A label value for what is absent or outside its set: one value, never the thing itself. */
const NONE = 'none';
const UNMATCHED_ROUTE = 'unmatched';
/** A normaliser pass's name as the code spells them (`money`, `e-mail-address`); nothing else. */
const PASS_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** First audio: tens of milliseconds on a warm instance, seconds when it is overloaded. */
const FIRST_AUDIO_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2, 5];
/** Lateness against a clause's deadline; `le="0"` counts the clauses that started on time. */
const LATENESS_BUCKETS = [0, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5];

function engineLabel(engine: EngineId): string {
  return ENGINE_IDS.has(engine) ? engine : NONE;
}

function languageLabel(language: LanguageCode | undefined): string {
  return language !== undefined && LANGUAGE_CODES.has(language) ? language : NONE;
}

function statusLabel(status: number | undefined): string {
  return status !== undefined && Number.isInteger(status) && status >= 100 && status <= 599
    ? String(status)
    : NONE;
}

/**
 * The service's metrics in one Prometheus registry: its own, and the library's process and
 * Node.js defaults (memory, event-loop lag, garbage collection). One per process: each instance
 * is scraped on its own.
 */
export class PrometheusMetrics implements Metrics {
  readonly registry = new Registry();
  #pool: PoolState | undefined;
  #health: (() => Promise<readonly HealthState[]>) | undefined;
  #clauseCache: (() => ClauseCacheStats) | undefined;

  readonly #requests: Counter<'route' | 'status' | 'language'>;
  readonly #inFlight: Gauge<'path'>;
  readonly #firstAudio: Histogram<'path' | 'engine'>;
  readonly #audio: Counter<'path' | 'engine'>;
  readonly #rateLimited: Counter<'path'>;
  readonly #lateness: Histogram<'engine'>;
  readonly #engineSeconds: Counter<'engine'>;
  readonly #admissions: Counter<'engine' | 'outcome'>;
  readonly #charges: Counter<'kind'>;
  readonly #chargedTokens: Counter;
  readonly #refunds: Counter<'kind'>;
  readonly #refundedTokens: Counter;
  readonly #paymentRefusals: Counter;
  readonly #normalizationFailures: Counter<'language' | 'pass'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });

    this.#requests = new Counter({
      name: 'ijwi_http_requests_total',
      help: 'HTTP requests answered, by route pattern, status and the language spoken',
      labelNames: ['route', 'status', 'language'],
      registers,
    });
    this.#inFlight = new Gauge({
      name: 'ijwi_calls_in_flight',
      help: 'Calls being synthesised or streamed now, by path (live: open live contexts)',
      labelNames: ['path'],
      registers,
    });
    this.#firstAudio = new Histogram({
      name: 'ijwi_first_audio_seconds',
      help: 'From the request (live: the text completing the first clause) to its first audio, server side',
      labelNames: ['path', 'engine'],
      buckets: FIRST_AUDIO_BUCKETS,
      registers,
    });
    this.#audio = new Counter({
      name: 'ijwi_audio_delivered_seconds_total',
      help: 'Seconds of audio delivered to clients',
      labelNames: ['path', 'engine'],
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'ijwi_rate_limited_total',
      help: 'Requests and live contexts refused by the rate limit (429 rate_limited)',
      labelNames: ['path'],
      registers,
    });
    this.#lateness = new Histogram({
      name: 'ijwi_clause_lateness_seconds',
      help: "How long after its deadline a clause's audio began (0: on time); first clauses are due on arrival",
      labelNames: ['engine'],
      buckets: LATENESS_BUCKETS,
      registers,
    });
    this.#engineSeconds = new Counter({
      name: 'ijwi_engine_seconds_total',
      help: 'Worker time spent running clauses, by engine',
      labelNames: ['engine'],
      registers,
    });
    this.#admissions = new Counter({
      name: 'ijwi_engine_call_admissions_total',
      help: 'Calls on an engine with a call limit (neural voices): admitted, or refused with 503 voice_busy',
      labelNames: ['engine', 'outcome'],
      registers,
    });
    this.#charges = new Counter({
      name: 'ijwi_charges_total',
      help: 'Generations billed: charge (tokens), free_use, studio_free',
      labelNames: ['kind'],
      registers,
    });
    this.#chargedTokens = new Counter({
      name: 'ijwi_charged_tokens_total',
      help: 'Tokens charged',
      registers,
    });
    this.#refunds = new Counter({
      name: 'ijwi_refunds_total',
      help: 'Charges given back: refund (tokens), free_use_refund',
      labelNames: ['kind'],
      registers,
    });
    this.#refundedTokens = new Counter({
      name: 'ijwi_refunded_tokens_total',
      help: 'Tokens given back by refunds',
      registers,
    });
    this.#paymentRefusals = new Counter({
      name: 'ijwi_payment_refusals_total',
      help: 'Requests and live parts refused for want of tokens (402 insufficient_tokens)',
      registers,
    });

    this.#normalizationFailures = new Counter({
      name: 'ijwi_normalization_failures_total',
      help: 'Normaliser passes that threw (a bug): their match was left as written, by language and pass',
      labelNames: ['language', 'pass'],
      registers,
    });

    // Gauges that mirror the pool's state and the health checks are read when scraped.
    const pool = () => this.#pool;
    const poolGauge = (name: string, help: string, read: (pool: PoolState) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const state = pool();
          if (state) this.set(read(state));
        },
      });
    poolGauge('ijwi_pool_queued_clauses', 'Clauses waiting for an engine worker', (p) => p.queued);
    poolGauge('ijwi_pool_busy_workers', 'Engine workers running a clause', (p) => p.running);
    poolGauge('ijwi_pool_workers', 'Engine workers', (p) => p.size);
    const engineGauge = (name: string, help: string, read: (pool: PoolState, engine: EngineId) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['engine'],
        registers,
        collect() {
          const state = pool();
          if (state) for (const engine of limitedEngines(state)) this.set({ engine }, read(state, engine));
        },
      });
    engineGauge(
      'ijwi_engine_calls',
      'Calls in flight on an engine with a call limit (neural voices)',
      (p, engine) => p.callsOn(engine),
    );
    engineGauge(
      'ijwi_engine_call_limit',
      'Calls an engine with a call limit takes at once (NEURAL_MAX_CALLS); past it, 503 voice_busy',
      (p, engine) => p.callLimit(engine) ?? 0,
    );

    // The clause cache keeps its own counts (for the health body too): read when scraped. Its
    // counters are set to them, so they only ever rise, as the cache's counts do.
    const cacheStats = () => this.#clauseCache?.();
    const cacheCounter = (name: string, help: string, read: (stats: ClauseCacheStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          const stats = cacheStats();
          if (stats === undefined) return;
          this.reset();
          this.inc(read(stats));
        },
      });
    cacheCounter('ijwi_clause_cache_hits_total', 'Clauses served from the clause cache', (s) => s.hits);
    cacheCounter(
      'ijwi_clause_cache_misses_total',
      'Clauses looked up in the clause cache and spoken',
      (s) => s.misses,
    );
    cacheCounter(
      'ijwi_clause_cache_evictions_total',
      'Clause cache entries dropped to stay within CLAUSE_CACHE_MB',
      (s) => s.evictions,
    );
    const cacheGauge = (name: string, help: string, read: (stats: ClauseCacheStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const stats = cacheStats();
          if (stats !== undefined) this.set(read(stats));
        },
      });
    cacheGauge(
      'ijwi_clause_cache_bytes',
      'Bytes the clause cache holds: audio, word timings, bookkeeping',
      (s) => s.bytes,
    );
    cacheGauge(
      'ijwi_clause_cache_max_bytes',
      'The clause cache bound (CLAUSE_CACHE_MB); 0 when off',
      (s) => s.maxBytes,
    );
    cacheGauge('ijwi_clause_cache_entries', 'Clauses the clause cache holds', (s) => s.entries);

    // Both health gauges come from one run of the checks per scrape.
    let pending: Promise<readonly HealthState[]> | undefined;
    const health = async (): Promise<readonly HealthState[]> => {
      const read = this.#health;
      if (read === undefined) return [];
      pending ??= read().finally(() => {
        pending = undefined;
      });
      return pending;
    };
    const healthGauge = (name: string, help: string, read: (state: HealthState) => boolean) =>
      new Gauge({
        name,
        help,
        labelNames: ['check'],
        registers,
        async collect() {
          for (const state of await health()) this.set({ check: state.check }, read(state) ? 1 : 0);
        },
      });
    healthGauge(
      'ijwi_health_check_up',
      'Whether a readiness check lets the instance serve (1) or not (0), as the health check says',
      (state) => state.serving,
    );
    healthGauge(
      'ijwi_health_check_degraded',
      'Whether a check serves in a reduced mode (1), e.g. the shared rate limit down and per-instance limits in use',
      (state) => state.degraded,
    );
  }

  /** The text exposition of every metric, and its content type. */
  async render(): Promise<{ readonly contentType: string; readonly body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  httpRequest(
    route: string | undefined,
    status: number | undefined,
    language: LanguageCode | undefined,
  ): void {
    this.#requests.inc({
      // The router's pattern (`/generated/:file`), one of the routes the app registered at start.
      route: route ?? UNMATCHED_ROUTE,
      status: statusLabel(status),
      language: languageLabel(language),
    });
  }

  callStarted(path: SpeechPath): () => void {
    this.#inFlight.inc({ path });
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.#inFlight.dec({ path });
    };
  }

  firstAudio(path: SpeechPath, engine: EngineId, ms: number): void {
    this.#firstAudio.observe({ path, engine: engineLabel(engine) }, Math.max(0, ms) / 1000);
  }

  audioDelivered(path: SpeechPath, engine: EngineId, seconds: number): void {
    if (seconds > 0) this.#audio.inc({ path, engine: engineLabel(engine) }, seconds);
  }

  rateLimited(path: SpeechPath): void {
    this.#rateLimited.inc({ path });
  }

  clauseStarted(engine: EngineId, lateMs: number): void {
    this.#lateness.observe({ engine: engineLabel(engine) }, Math.max(0, lateMs) / 1000);
  }

  engineTime(engine: EngineId, ms: number): void {
    if (ms > 0) this.#engineSeconds.inc({ engine: engineLabel(engine) }, ms / 1000);
  }

  callAdmission(engine: EngineId, admitted: boolean): void {
    this.#admissions.inc({ engine: engineLabel(engine), outcome: admitted ? 'admitted' : 'refused' });
  }

  charged(kind: ChargeKind, tokens: number): void {
    this.#charges.inc({ kind });
    if (tokens > 0) this.#chargedTokens.inc(tokens);
  }

  refunded(kind: RefundKind, tokens: number): void {
    this.#refunds.inc({ kind });
    if (tokens > 0) this.#refundedTokens.inc(tokens);
  }

  paymentRefused(): void {
    this.#paymentRefusals.inc();
  }

  normalizationFailed(language: LanguageCode, pass: string): void {
    this.#normalizationFailures.inc({
      language: languageLabel(language),
      pass: PASS_NAME.test(pass) ? pass : NONE,
    });
  }

  observePool(pool: PoolState): void {
    this.#pool = pool;
  }

  observeHealth(read: () => Promise<readonly HealthState[]>): void {
    this.#health = read;
  }

  observeClauseCache(read: () => ClauseCacheStats): void {
    this.#clauseCache = read;
  }
}

/** The engines of the registry that take a bounded number of calls in `pool`. */
function limitedEngines(pool: PoolState): EngineId[] {
  return (Object.keys(engines) as EngineId[]).filter((engine) => pool.callLimit(engine) !== undefined);
}
