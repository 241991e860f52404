import type { FastifySchema } from 'fastify';
import { z } from 'zod';
import { tags } from '../openapi.ts';
import { jsonResponse } from './responses.ts';

function healthBody(status: 'ready' | 'not_ready') {
  return z.object({
    status: z.literal(status),
    version: z.string().meta({ description: 'The service version.' }),
    checks: z.record(z.string(), z.string()).meta({
      description:
        'Each check (engine, database, rate_limit, storage) and its state: `ok`; `degraded: <reason>` ' +
        'when it still serves in a reduced mode (the service stays ready: e.g. the shared rate limit ' +
        'is unreachable and each instance limits on its own); or a short reason it is not ready. No ' +
        'secrets, hostnames or stack traces. While the instance shuts down, `instance` is added as ' +
        '`shutting down` and the answer is 503.',
      examples: [{ engine: 'ok', database: 'ok', rate_limit: 'ok', storage: 'ok' }],
    }),
  });
}

/** The health body, as the handler builds it. */
export type HealthBody = z.input<ReturnType<typeof healthBody>>;

/** The `health.php` route schema. */
export const healthRouteSchema: FastifySchema = {
  operationId: 'getHealth',
  summary: 'Readiness',
  description:
    'Whether the service can take TTS requests: engines loaded and warmed, database reachable, ' +
    'rate limit working (a shared rate-limit store that is down only degrades it), file storage ' +
    'writable. No API key.',
  tags: [tags.service],
  response: {
    200: jsonResponse('Ready.', healthBody('ready')),
    503: jsonResponse('Not ready; `checks` says what is not.', healthBody('not_ready')),
  },
};
