import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService, DEFAULT_CHARS_PER_TOKEN } from '../../src/accounts/billing.ts';
import { DictionaryService } from '../../src/accounts/dictionaries.ts';
import { SessionService } from '../../src/accounts/sessions.ts';
import { StudioAudioService } from '../../src/accounts/studio-audio.ts';
import { TopUpRequestService } from '../../src/accounts/topup-requests.ts';
import { UserService } from '../../src/accounts/users.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import type { Database } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { webRepositories } from '../../src/store/db/web-repositories.ts';
import { LocalFileStore } from '../../src/store/files/local-file-store.ts';
import { MemoryRateLimitStore } from '../../src/store/rate-limit/memory-rate-limit-store.ts';
import type { RateLimitStore } from '../../src/store/rate-limit/rate-limit-store.ts';
import { buildTestApp } from './build-test-app.ts';

export interface WebFixtureOptions {
  /** The engine pool as the routes see it; `() => undefined` is a service still warming up. */
  readonly pool: () => EnginePool | undefined;
  /** Defaults to `http://127.0.0.1`; an https URL turns on Secure `__Host-` cookies. */
  readonly publicBaseUrl?: string;
  readonly rateLimit?: RateLimitStore;
  /** Proxies whose X-Forwarded-For is believed, as `TRUST_PROXY` sets them. */
  readonly trustedProxies?: readonly string[];
}

/** The whole app, API and website, wired as `main.ts` wires it, over an in-memory database. */
export interface WebFixture {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly accounts: AccountService;
  readonly billing: BillingService;
  readonly users: UserService;
  /** Each account's pronunciation dictionaries, as the pages and the API reach them. */
  readonly dictionaries: DictionaryService;
  readonly rateLimit: RateLimitStore;
  readonly publicBaseUrl: string;
  close(): Promise<void>;
}

/** The app with the website, ready for `inject()` (or `listen()` on the port of its public base URL). */
export async function buildWebTestApp(options: WebFixtureOptions): Promise<WebFixture> {
  const publicBaseUrl = options.publicBaseUrl ?? 'http://127.0.0.1';
  const db = await openDatabase(':memory:');
  const dir = await mkdtemp(join(tmpdir(), 'ijwi-web-'));
  const files = await LocalFileStore.create({ dir });
  const rateLimit = options.rateLimit ?? new MemoryRateLimitStore();
  const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
  const billing = new BillingService({ accounts: db.accounts, ledger: db.ledger });
  const { users: userRepository, sessions: sessionRepository, studioAudio } = webRepositories(db.kysely);
  const users = new UserService({ users: userRepository });
  const lexicons = new DictionaryService(db.dictionaries);
  const app = await buildTestApp({
    files,
    ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
    tts: {
      pool: options.pool,
      accounts,
      billing,
      charsPerToken: DEFAULT_CHARS_PER_TOKEN,
      rateLimit,
      publicBaseUrl,
      lexicons,
      supportEmail: 'help@ijwi.example',
    },
    web: {
      users,
      sessions: new SessionService({ sessions: sessionRepository }),
      accounts,
      billing,
      lexicons,
      topUps: new TopUpRequestService(db.topUpRequests, billing),
      studioAudio: new StudioAudioService(studioAudio),
    },
  });
  return {
    app,
    db,
    accounts,
    billing,
    users,
    dictionaries: lexicons,
    rateLimit,
    publicBaseUrl,
    async close() {
      await app.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

let nextHost = 1;

/**
 * A browser for `inject()`: keeps the cookies it is given and sends them back, and posts forms
 * as this site's own pages do (urlencoded, with `Origin`), so tests read like page visits.
 */
export class TestBrowser {
  readonly #app: FastifyInstance;
  readonly #origin: string;
  readonly #address: string;
  readonly cookies = new Map<string, string>();

  /** Each browser comes from its own address unless told otherwise, as people do. */
  constructor(app: FastifyInstance, origin: string, address = `10.${nextHost >> 8}.${nextHost++ & 255}.1`) {
    this.#app = app;
    this.#origin = origin;
    this.#address = address;
  }

  #cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  #keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.#keep(
      await this.#app.inject({
        method: 'GET',
        url,
        headers: this.#cookieHeader(),
        remoteAddress: this.#address,
      }),
    );
  }

  /** Posts a form; `headers` may replace or remove (with undefined) what a page would send. */
  async post(
    url: string,
    form: Record<string, string>,
    headers: Record<string, string | undefined> = {},
  ): Promise<LightMyRequestResponse> {
    const all: Record<string, string | undefined> = {
      'content-type': 'application/x-www-form-urlencoded',
      origin: this.#origin,
      ...this.#cookieHeader(),
      ...headers,
    };
    const sent = Object.fromEntries(
      Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    return this.#keep(
      await this.#app.inject({
        method: 'POST',
        url,
        headers: sent,
        payload: new URLSearchParams(form).toString(),
        remoteAddress: this.#address,
      }),
    );
  }

  /** What the studio page's script sends: JSON with the session's token in X-CSRF-Token. */
  async speak(
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.#fromStudio('/studio/tts', 'application/json', JSON.stringify(body), headers);
  }

  /** What the studio page's script sends with a body of its own (a WAV for a download); `csrf: false` leaves the token out. */
  async postBytes(
    url: string,
    body: Uint8Array,
    contentType: string,
    csrf = true,
  ): Promise<LightMyRequestResponse> {
    return this.#fromStudio(url, contentType, Buffer.from(body), csrf ? {} : { 'x-csrf-token': '' });
  }

  /** A POST from the studio page's script, with the session's anti-forgery token read from the page. */
  async #fromStudio(
    url: string,
    contentType: string,
    payload: string | Buffer,
    headers: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const studio = await this.get('/studio');
    const token = /data-csrf="([^"]+)"/.exec(studio.body)?.[1] ?? '';
    return this.#keep(
      await this.#app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': contentType,
          origin: this.#origin,
          'x-csrf-token': token,
          ...this.#cookieHeader(),
          ...headers,
        },
        payload,
        remoteAddress: this.#address,
      }),
    );
  }

  /** The anti-forgery token of the form on `url`, read from the page as a browser would. */
  async formToken(url: string): Promise<string> {
    const page = await this.get(url);
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (!token) throw new Error(`no form token on ${url} (status ${page.statusCode})`);
    return token;
  }

  /** Signs up through the form; resolves with the response (a 303 to the dashboard when it worked). */
  async signUp(fields: { name?: string; email: string; password: string }): Promise<LightMyRequestResponse> {
    const _csrf = await this.formToken('/signup');
    return this.post('/signup', { _csrf, name: fields.name ?? 'Test clinic', ...fields });
  }

  async signIn(fields: { email: string; password: string }): Promise<LightMyRequestResponse> {
    const _csrf = await this.formToken('/signin');
    return this.post('/signin', { _csrf, ...fields });
  }
}
