import type { FastifyPluginAsync } from 'fastify';
import { isSiteLanguage } from '../../web/i18n/languages.ts';
import { ApiError } from '../errors.ts';
import { setLanguageCookie } from '../page-language.ts';
import type { WebContext } from '../web-context.ts';
import { fromOwnPage } from '../web-session.ts';
import { safeNext } from './account.ts';

/**
 * GET /language/<code>?next=<path>: the language switcher of every page. A plain link, so it
 * works without a script and from pages that carry no form token (errors, the voices page). It
 * remembers the choice in the browser, and for a signed-in user with the account too, then goes
 * back to the page it was followed from. Only a link followed from this site's own pages changes
 * what the account keeps; one from elsewhere still switches this browser, which is harmless.
 */
export const languageRoutes: FastifyPluginAsync<WebContext> = async (app, context) => {
  app.get('/language/:code', async (request, reply) => {
    const { code } = request.params as { code?: string };
    if (!isSiteLanguage(code)) {
      throw new ApiError('not_found', `no website language ${String(code)}; use rw, fr or en`);
    }
    const next = safeNext((request.query as { next?: unknown }).next) ?? '/';
    setLanguageCookie(reply, code, context.cookies.secure);
    const session = request.webSession;
    if (session && fromOwnPage(request, context.cookies))
      await context.users.setLanguage(session.user.id, code);
    return reply.redirect(next, 303);
  });
};
