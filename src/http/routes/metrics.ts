import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { MetricsExposition } from '../../metrics/metrics.ts';
import { ApiError } from '../errors.ts';

export interface MetricsRouteOptions {
  readonly exposition: MetricsExposition;
  /** The bearer token a scraper sends (METRICS_TOKEN). */
  readonly token: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * True when `authorization` is `Bearer <token>`. The comparison takes the same time however much
 * of the token a guess gets right: both sides are hashed to equal lengths, then compared in
 * constant time.
 */
export function scrapeAllowed(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token));
}

/**
 * GET /metrics on the service's own port, in Prometheus's text format, for a scraper that sends
 * the metrics token. Registered only when METRICS_TOKEN is set; hidden from the API's document.
 */
export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, options) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!scrapeAllowed(request.headers.authorization, options.token)) {
      throw new ApiError('invalid_api_key', 'send the metrics token as "Authorization: Bearer <token>"', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    }
    const { contentType, body } = await options.exposition.render();
    return reply.header('Cache-Control', 'no-store').type(contentType).send(body);
  });
};
