import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { docsPage, parseOpenApi } from '../../web/pages/docs.ts';
import { landingPage } from '../../web/pages/landing.ts';
import { sendPage } from '../page-headers.ts';
import type { WebContext } from '../web-context.ts';
import { webPageContext } from '../web-session.ts';

type OpenApi = ReturnType<typeof parseOpenApi>;

/**
 * The API's own OpenAPI document, as a client would fetch it, so the docs page shows exactly
 * what is published. Kept once found; while the service has none, asked for again next time.
 */
function openApiSource(app: FastifyInstance): () => Promise<OpenApi> {
  let found: OpenApi;
  return async () => {
    if (found) return found;
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    found = response.statusCode === 200 ? parseOpenApi(response.json()) : undefined;
    return found;
  };
}

/** GET / (the landing page) and GET /docs (the API docs, rendered from the OpenAPI document). */
export const pageRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  const openApi = openApiSource(app);

  app.get('/', async (request, reply) =>
    sendPage(
      reply,
      landingPage(webPageContext(request), {
        charsPerToken: context.charsPerToken,
        publicBaseUrl: context.publicBaseUrl,
        supportEmail: context.supportEmail,
      }),
    ),
  );

  app.get('/docs', async (request, reply) =>
    sendPage(
      reply,
      docsPage(webPageContext(request), { publicBaseUrl: context.publicBaseUrl, openApi: await openApi() }),
    ),
  );
};
