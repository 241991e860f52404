import type { FastifyPluginAsync } from 'fastify';
import { findAsset } from '../../web/assets.ts';
import { ApiError } from '../errors.ts';

/**
 * GET /assets/<name>: the pages' stylesheet, scripts and icon, from memory. A URL with the
 * current `?v=` is immutable and cached for a year; any other is revalidated by ETag.
 */
export const assetRoutes: FastifyPluginAsync = async (app) => {
  app.get('/assets/:name', async (request, reply) => {
    const { name } = request.params as { name?: string };
    const { v } = request.query as { v?: unknown };
    const asset = name === undefined ? undefined : findAsset(name);
    if (!asset) throw new ApiError('not_found', 'no such asset');
    const etag = `"${asset.version}"`;
    reply
      .header('Content-Type', asset.contentType)
      .header('ETag', etag)
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Cache-Control',
        v === asset.version ? 'public, max-age=31536000, immutable' : 'public, no-cache',
      );
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(asset.body);
  });
};
