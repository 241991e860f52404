import type { AccountService } from '../accounts/accounts.ts';
import type { BillingService } from '../accounts/billing.ts';
import type { DictionaryService } from '../accounts/dictionaries.ts';
import type { SessionService } from '../accounts/sessions.ts';
import type { StudioAudioService } from '../accounts/studio-audio.ts';
import type { TopUpRequestService } from '../accounts/topup-requests.ts';
import type { UserService } from '../accounts/users.ts';
import type { TransportMetrics } from '../metrics/metrics.ts';
import type { ClauseCache } from '../speech/cache/clause-cache.ts';
import type { EnginePool } from '../speech/pool/engine-pool.ts';
import type { RateLimitStore } from '../store/rate-limit/rate-limit-store.ts';
import type { LiveSockets } from './routes/live.ts';
import type { CookiePolicy } from './web-session.ts';

// Apart from web.ts, which registers the route files: each of them reads this context, so it
// cannot live in the file that imports them.

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
  readonly lexicons: Pick<
    DictionaryService,
    'list' | 'add' | 'update' | 'remove' | 'lexiconFor' | 'dictionaries'
  >;
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
