import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { AccountService } from '../accounts/accounts.ts';
import type { BillingService } from '../accounts/billing.ts';
import type { LexiconService } from '../accounts/lexicons.ts';
import type { SessionService } from '../accounts/sessions.ts';
import type { StudioAudioService } from '../accounts/studio-audio.ts';
import type { TopUpRequestService } from '../accounts/topup-requests.ts';
import type { UserService } from '../accounts/users.ts';
import type { TransportMetrics } from '../metrics/metrics.ts';
import type { ClauseCache } from '../speech/clause-cache.ts';
import type { EnginePool } from '../speech/pool/engine-pool.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import { messagePage } from '../web/pages/message.ts';
import { ApiError } from './errors.ts';
import { sendPage } from './page-headers.ts';
import { accountRoutes } from './routes/account.ts';
import { assetRoutes } from './routes/assets.ts';
import { dashboardRoutes } from './routes/dashboard.ts';
import { languageRoutes } from './routes/language.ts';
import { lexiconRoutes } from './routes/lexicon.ts';
import type { LiveSockets } from './routes/live.ts';
import { pageRoutes } from './routes/pages.ts';
import { sampleRoutes } from './routes/samples.ts';
import { studioRoutes } from './routes/studio.ts';
import { type CookiePolicy, cookiePolicy, passesCsrfCheck, webPageContext } from './web-session.ts';

/** The services behind the web pages. */
export interface WebServices {
  readonly users: Pick<UserService, 'signUp' | 'signIn' | 'setLanguage'>;
  readonly sessions: Pick<SessionService, 'start' | 'resume' | 'end'>;
  readonly accounts: Pick<AccountService, 'getAccount' | 'createKey' | 'listKeys' | 'revokeKey'>;
  readonly billing: Pick<
    BillingService,
    'balance' | 'listLedger' | 'dailyUsage' | 'precheck' | 'commitCharge' | 'refundCharge' | 'recordDuration'
  >;
  /** Customers' requests to buy tokens. */
  readonly topUps: Pick<TopUpRequestService, 'request' | 'listForAccount'>;
  /** Each account's pronunciation lexicon: edited on its page, applied in the studio as on the API. */
  readonly lexicons: Pick<LexiconService, 'list' | 'add' | 'update' | 'remove' | 'lexiconFor'>;
  /** The studio's generations, so that a download in another format is only ever one of them. */
  readonly studioAudio: Pick<StudioAudioService, 'remember' | 'madeFor'>;
}

export interface WebOptions extends WebServices {
  /** The engine pool once it is warm; undefined while it starts. */
  readonly pool: () => EnginePool | undefined;
  /** Each account's audio of clauses it has had spoken, for the studio; absent: none kept. */
  readonly clauseCache?: ClauseCache | undefined;
  readonly rateLimit: RateLimitStore;
  readonly charsPerToken: number;
  readonly publicBaseUrl: string;
  /** The per-minute limit, applied to the studio per account as the API applies it per key. */
  readonly requestsPerMinute: number;
  /** The studio streams, so it takes what the streaming API takes. */
  readonly studioMaxChars: number;
  /** The live connections of this instance, which the studio's live mode joins. */
  readonly liveSockets: LiveSockets;
  /** The operator's contact for customers, or null. */
  readonly supportEmail: string | null;
  /** Where the studio's calls are recorded. */
  readonly metrics: TransportMetrics;
}

/** What every web route file receives: the options and the cookie policy derived from them. */
export interface WebContext extends WebOptions {
  readonly cookies: CookiePolicy;
}

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
