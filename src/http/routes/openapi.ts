import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { OPENAPI_PATH, OPENAPI_VERSION, tags } from '../openapi.ts';

/** GET /api/v1/openapi.json: the OpenAPI document, built from the route schemas. */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  // Built on the first request, once every route is registered, then kept: routes never change
  // while the app runs. Sent as a string, so no serialiser reshapes it.
  let document: string | undefined;
  app.get(
    OPENAPI_PATH,
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        description: `The OpenAPI ${OPENAPI_VERSION} description of this API, generated from the schemas the service validates and serialises with. No API key.`,
        tags: [tags.service],
        response: {
          200: {
            description: 'The OpenAPI document.',
            content: {
              'application/json': {
                schema: z.looseObject({ openapi: z.literal(OPENAPI_VERSION) }),
              },
            },
          },
        },
      },
    },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply
        .type('application/json; charset=utf-8')
        .header('Cache-Control', 'public, max-age=300')
        .send(document);
    },
  );
};
