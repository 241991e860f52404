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
        'Each check (engine, database, rate_limit, storage) and its state: `ok`, or a short reason ' +
        'without secrets, hostnames or stack traces.',
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
    'Whether the service can take TTS requests: engines loaded and warmed, database and rate-limit ' +
    'store reachable, file storage writable. No API key.',
  tags: [tags.service],
  response: {
    200: jsonResponse('Ready.', healthBody('ready')),
    503: jsonResponse('Not ready; `checks` says what is not.', healthBody('not_ready')),
  },
};
