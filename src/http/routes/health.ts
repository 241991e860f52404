import type { FastifyPluginAsync } from 'fastify';
import { type HealthBody, healthRouteSchema } from '../schemas/health.ts';

/** A readiness check: `true` when ready, otherwise a short reason (no secrets, hosts or stack traces). */
export type HealthCheck = () => Promise<true | string> | true | string;

export interface HealthOptions {
  readonly version: string;
  readonly checks: Readonly<Record<string, HealthCheck>>;
}

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: HealthCheck): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(check), timeout]);
    return result === true ? 'ok' : result;
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/** GET /api/v1/health.php: 200 when every check passes, else 503, with each check's state. */
export const healthRoutes: FastifyPluginAsync<HealthOptions> = async (app, options) => {
  app.get('/api/v1/health.php', { schema: healthRouteSchema }, async (_request, reply) => {
    const names = Object.keys(options.checks);
    const results = await Promise.all(
      names.map((name) => runCheck(options.checks[name] ?? (() => 'missing'))),
    );
    const checks = Object.fromEntries(names.map((name, i) => [name, results[i] ?? 'missing']));
    const ready = results.every((r) => r === 'ok');
    reply.header('Cache-Control', 'no-store');
    const body: HealthBody = ready
      ? { status: 'ready', version: options.version, checks }
      : { status: 'not_ready', version: options.version, checks };
    return reply.status(ready ? 200 : 503).send(body);
  });
};
