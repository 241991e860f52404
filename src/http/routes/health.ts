import type { FastifyPluginAsync } from 'fastify';
import type { ObservedMetrics } from '../../metrics/metrics.ts';
import type { CheckResult } from '../../store/check-result.ts';
import { statusPage } from '../../web/pages/status.ts';
import { sendPage } from '../page-headers.ts';
import { pageContext } from '../page-language.ts';
import { type HealthBody, healthRouteSchema } from '../schemas/health.ts';

/**
 * A readiness check: `true` when ready, `{ degraded }` when still serving in a reduced mode (it
 * shows as `degraded: <reason>` and leaves the service ready), otherwise a short reason it is
 * not ready. No secrets, hosts or stack traces.
 */
export type HealthCheck = () => Promise<CheckResult> | CheckResult;

/** How a check that still serves shows in `checks`. */
const DEGRADED_PREFIX = 'degraded: ';

export interface HealthOptions {
  readonly version: string;
  readonly checks: Readonly<Record<string, HealthCheck>>;
  /** True once the instance has begun to shut down: it is then not ready, whatever the checks. */
  readonly closing: () => boolean;
  /** Shows each check as gauges when metrics are scraped. */
  readonly metrics: ObservedMetrics;
}

/** Route config of the routes that still answer while the instance shuts down (`app.ts`). */
const ANSWERS_WHILE_CLOSING = { answersWhileClosing: true } as const;

const CHECK_TIMEOUT_MS = 2_000;

/** A check's state as `checks` shows it, and whether it lets the service take requests. */
interface CheckState {
  readonly text: string;
  readonly serving: boolean;
  readonly degraded: boolean;
}

async function runCheck(check: HealthCheck): Promise<CheckState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(check), timeout]);
    if (result === true) return { text: 'ok', serving: true, degraded: false };
    if (typeof result === 'string') return { text: result, serving: false, degraded: false };
    return { text: `${DEGRADED_PREFIX}${result.degraded}`, serving: true, degraded: true };
  } catch {
    return { text: 'failed', serving: false, degraded: false };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/v1/health.php: 200 when every check passes or is degraded, else 503, with each check's
 * state. A degraded check (e.g. the shared rate limit down, per-instance limits in use) keeps the
 * instance in a load balancer's rotation: it still serves correctly, and taking every instance
 * out for a Redis outage would turn a fail-open design into a full outage.
 */
export const healthRoutes: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  const names = Object.keys(options.checks);
  const runChecks = () =>
    Promise.all(names.map((name) => runCheck(options.checks[name] ?? (() => 'missing'))));
  // The same checks as gauges, run when metrics are scraped.
  options.metrics.observeHealth(async () =>
    (await runChecks()).map((state, i) => ({
      check: names[i] ?? 'missing',
      serving: state.serving,
      degraded: state.degraded,
    })),
  );
  const status = async () => {
    const results = await runChecks();
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i]?.text ?? 'missing']));
    // A load balancer stops sending requests here while running ones finish.
    if (options.closing()) return { checks: { ...checks, instance: 'shutting down' }, ready: false };
    return { checks, ready: results.every((r) => r.serving) };
  };

  const config = ANSWERS_WHILE_CLOSING;
  app.get('/api/v1/health.php', { schema: healthRouteSchema, config }, async (_request, reply) => {
    const { checks, ready } = await status();
    reply.header('Cache-Control', 'no-store');
    // The contract fixes this body to these three fields: nothing that moves with customers'
    // traffic (the clause cache's counts are in /metrics, behind its token).
    const body: HealthBody = ready
      ? { status: 'ready', version: options.version, checks }
      : { status: 'not_ready', version: options.version, checks };
    return reply.status(ready ? 200 : 503).send(body);
  });

  // The same checks as a page, for the footer's "Service status" link.
  app.get('/status', { schema: { hide: true }, config }, async (request, reply) => {
    const { checks, ready } = await status();
    return sendPage(
      reply,
      statusPage(pageContext(request, { kind: 'unknown' }), { ready, version: options.version, checks }),
      ready ? 200 : 503,
    );
  });
};
