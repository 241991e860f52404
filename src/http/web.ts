import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import { messagePage } from '../web/pages/message.ts';
import { ApiError } from './errors.ts';
import { sendPage } from './page-headers.ts';
import { accountRoutes } from './routes/account.ts';
import { assetRoutes } from './routes/assets.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { languageRoutes } from './routes/language.ts';
import { lexiconRoutes } from './routes/lexicon.ts';
import { pageRoutes } from './routes/pages.ts';
import { sampleRoutes } from './routes/samples.ts';
import { studioRoutes } from './routes/studio.ts';
import type { WebContext, WebOptions } from './web-context.ts';
import { cookiePolicy, passesCsrfCheck, webPageContext } from './web-session.ts';

// Forms carry a few short fields; anything bigger is not from these pages.
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * The website: landing page, sign-up and sign-in, dashboard, studio, API docs, their assets and
 * the voice samples. Cookies and form bodies are parsed only in here, so the API's own rules
 * (JSON only, 415 otherwise) stay as they are. Every state-changing request passes the
 * anti-forgery check (see web-session.ts) before its handler runs.
 */
export const webPlugin: FastifyPluginAsync<WebOptions> = async (app, options) => {
  const context: WebContext = { ...options, cookies: cookiePolicy(options.publicBaseUrl) };
  await app.register(assetRoutes);
  await app.register(sampleRoutes, { pool: options.pool });

  await app.register(async (pages) => {
    await pages.register(fastifyCookie);
    await pages.register(fastifyFormbody, { bodyLimit: FORM_BODY_LIMIT });
    pages.decorateRequest('webSession', null);
    pages.addHook('onRequest', async (request) => {
      const token = request.cookies[context.cookies.session];
      request.webSession = token ? ((await options.sessions.resume(token)) ?? null) : null;
    });
    pages.addHook('preHandler', async (request, reply) => {
      if (request.method === 'GET' || request.method === 'HEAD' || passesCsrfCheck(request, context.cookies))
        return;
      request.log.warn('state-changing web request refused: other origin or no anti-forgery token');
      if (request.headers['content-type']?.startsWith('application/json')) {
        throw new ApiError(
          'forbidden',
          'this request did not come from the Ijwi page; reload it and try again',
        );
      }
      const page = webPageContext(request);
      sendPage(
        reply,
        messagePage(page, {
          title: page.t.text('refused.title'),
          message: page.t.text('refused.text'),
          action: { href: '/', label: page.t.text('common.home') },
        }),
        403,
      );
      return reply;
    });
    await pages.register(pageRoutes, context);
    await pages.register(languageRoutes, context);
    await pages.register(accountRoutes, context);
    await pages.register(dashboardRoutes, context);
    await pages.register(studioRoutes, context);
    await pages.register(lexiconRoutes, context);
  });
};
