import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { after, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService, DEFAULT_CHARS_PER_TOKEN } from '../../src/accounts/billing.ts';
import { DictionaryService } from '../../src/accounts/dictionaries.ts';
import type { LedgerEntry } from '../../src/accounts/repositories.ts';
import { freshPlayUrlKey, PlayUrlSigner, storedPlayUrlKey } from '../../src/calls/play-url-signer.ts';
import { PLAY_URL_MAX_SECONDS, PlayUrls } from '../../src/calls/play-urls.ts';
import type { LiveTimings } from '../../src/http/routes/live.ts';
import type { Limits } from '../../src/http/schemas/voices.ts';
import type { PrometheusMetrics } from '../../src/metrics/prometheus.ts';
import { EncodingThreads } from '../../src/speech/audio/encoding-threads.ts';
import { streamFormats } from '../../src/speech/audio/formats.ts';
import type { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import { EnginePool, type PoolOptions, type SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { findVoice } from '../../src/speech/voices/voices.ts';
import type { Database, DatabaseSource } from '../../src/store/db/database.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { LocalFileStore } from '../../src/store/files/local-file-store.ts';
import { MemoryRateLimitStore } from '../../src/store/rate-limit/memory-rate-limit-store.ts';
import type { RateLimitStore } from '../../src/store/rate-limit/rate-limit-store.ts';
import { buildTestApp } from './build-test-app.ts';

/** The contract's limits, as `main.ts` passes them. */
export const CONTRACT_LIMITS: Limits = { fileMaxChars: 10_000, streamMaxChars: 4_000, requestsPerMinute: 30 };

/** The operator's contact the test service names in its 402s. */
export const SUPPORT_EMAIL = 'billing@ijwi.example';

/** A public base URL unlike the inject host, so a test can tell `output_url` was built from config. */
export const PUBLIC_BASE_URL = 'https://voice.example.test';

/**
 * A real engine pool, small enough to start in a test file's `before`: two workers by default
 * (so concurrency is real) that warm up on one short sentence per language in the native rate
 * and one telephony format, and one encoding thread for the compressed formats, closed with the
 * pool. Every voice and format still works cold, only its first use is slower.
 */
export async function startTestPool(
  size = 2,
  options: Pick<PoolOptions, 'heavyCalls' | 'metrics'> = {},
): Promise<EnginePool> {
  const voiceOf = (language: string) => {
    const voice = findVoice(language, 0);
    if (!voice) throw new Error(`no voice ${language}/0`);
    return voice.engineVoice;
  };
  const sample = (language: string, text: string) => ({
    input: { kind: 'text', text } as const,
    voice: voiceOf(language),
  });
  const encoders = new EncodingThreads(1);
  const pool = await EnginePool.start({
    size,
    ...options,
    encoders,
    warmUp: {
      samples: [
        sample('en', 'Hello.'),
        sample('fr', 'Bonjour.'),
        { input: { kind: 'phonemes', phonemes: "[[mu'*aho]]" } as const, voice: voiceOf('rw') },
      ],
      outputs: [
        { sampleRate: 22050, encoding: 'pcm_s16le' },
        { sampleRate: streamFormats.mulaw_8k.sampleRate, encoding: 'mulaw' },
      ],
    },
  });
  // The service closes its encoding threads after its pool (`main.ts`); a test closes only the
  // pool it was given, which then closes them too.
  const closePool = pool.close.bind(pool);
  pool.close = async () => {
    await closePool();
    await encoders.close();
  };
  return pool;
}

export interface TtsFixtureOptions {
  /** The engine pool as the routes see it; `() => undefined` is a service still warming up. */
  readonly pool: () => EnginePool | undefined;
  /** Defaults to the in-process store with the real clock. */
  readonly rateLimit?: RateLimitStore;
  /** The token rule (configurable in the service); defaults to 1 token per started 100 characters. */
  readonly charsPerToken?: number;
  /** The store the app runs on (where, or one already open); defaults to a private in-memory SQLite. */
  readonly database?: DatabaseSource | Database;
  /** Live endpoint timings other than the service's defaults. */
  readonly liveTimings?: Partial<LiveTimings>;
  /** Metrics recorded as `main.ts` records them, and served at GET /metrics behind `token`. */
  readonly metrics?: { readonly recorder: PrometheusMetrics; readonly token: string };
  /** The clause cache the service keeps; none by default, so each request asks the pool. */
  readonly clauseCache?: ClauseCache;
  /** Another instance's generated-file folder, shared as instances share one (kept on close). */
  readonly filesDir?: string;
  /** Playable URLs an account may have alive; 1000 (the service's default) when absent. */
  readonly playUrlsPerAccount?: number;
  /** Where the app's log goes, at info level, as JSON lines; none when absent. */
  readonly logStream?: Writable;
}

/** An account made through the services, with keys that authenticate against it. */
export interface TestAccount {
  readonly accountId: string;
  /** The first of `keys`. */
  readonly key: string;
  readonly keys: readonly string[];
  /** The ids of `keys`, in the same order, for revoking. */
  readonly keyIds: readonly string[];
}

/** A TTS app wired like `main.ts`, and handles on what it is wired to. */
export interface TtsFixture {
  readonly app: FastifyInstance;
  readonly db: Database;
  readonly accounts: AccountService;
  readonly billing: BillingService;
  readonly lexicons: DictionaryService;
  readonly files: LocalFileStore;
  /** The folder behind `files`, to count what was written. */
  readonly filesDir: string;
  readonly rateLimit: RateLimitStore;
  /** A new account with `keys` keys (default 1) and, when `topUp` is given, that many tokens. */
  newAccount(options?: { keys?: number; topUp?: number }): Promise<TestAccount>;
  /** An account whose 5 free generations are already used, so every request is charged. */
  newPayingAccount(options?: { keys?: number; topUp?: number }): Promise<TestAccount>;
  /** Balance and free uses left, read from the ledger. */
  balanceOf(accountId: string): Promise<{ balance: number; freeUsesRemaining: number }>;
  /** The whole ledger, newest first. */
  ledgerOf(accountId: string): Promise<readonly LedgerEntry[]>;
  /** Closes the app, the database and the file folder; the pool belongs to the caller. */
  close(): Promise<void>;
}

/**
 * The app with real adapters, wired as `main.ts` wires them: SQLite (in memory, unless `database`
 * names another store), the account and billing services over it, the in-process rate limit,
 * generated files in a temp folder, and the same four health checks. Only the pool is passed in,
 * since one is shared per file.
 */
export async function buildTtsTestApp(options: TtsFixtureOptions): Promise<TtsFixture> {
  const given = options.database ?? ':memory:';
  const db = typeof given === 'object' && 'ledger' in given ? given : await openDatabase(given);
  const dir = options.filesDir ?? (await mkdtemp(join(tmpdir(), 'ijwi-tts-')));
  const files = await LocalFileStore.create({ dir });
  const rateLimit = options.rateLimit ?? new MemoryRateLimitStore();
  const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
  const recorder = options.metrics?.recorder;
  const billing = new BillingService({
    accounts: db.accounts,
    ledger: db.ledger,
    ...(recorder ? { metrics: recorder } : {}),
  });
  const lexicons = new DictionaryService(db.dictionaries);
  const charsPerToken = options.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
  // Signed with the key the database keeps, as `main.ts` does when no PLAY_URL_SECRET is set.
  const playKey = await db.playUrls.signingKey(freshPlayUrlKey(), new Date().toISOString());
  const app = await buildTestApp({
    ...(options.logStream
      ? { logger: { level: 'info', stream: options.logStream } as unknown as { level: string } }
      : {}),
    ...(recorder && options.metrics
      ? { metrics: recorder, metricsRoute: { exposition: recorder, token: options.metrics.token } }
      : {}),
    healthChecks: {
      engine: () => (options.pool()?.ready ? true : 'warming up'),
      database: () => db.ping(),
      rate_limit: () => rateLimit.check(),
      storage: () => files.check(),
    },
    limits: CONTRACT_LIMITS,
    files,
    ...(options.liveTimings ? { liveTimings: options.liveTimings } : {}),
    play: {
      urls: new PlayUrls(db.playUrls, billing, {
        maxPerAccount: options.playUrlsPerAccount ?? 1000,
        charsPerToken,
      }),
      signer: new PlayUrlSigner(storedPlayUrlKey(playKey)),
      maxLifetimeSeconds: PLAY_URL_MAX_SECONDS,
    },
    tts: {
      pool: options.pool,
      accounts,
      billing,
      charsPerToken,
      rateLimit,
      publicBaseUrl: PUBLIC_BASE_URL,
      lexicons,
      supportEmail: SUPPORT_EMAIL,
      ...(options.clauseCache ? { clauseCache: options.clauseCache } : {}),
    },
  });

  const newAccount = async ({ keys = 1, topUp }: { keys?: number; topUp?: number } = {}) => {
    const created = await accounts.createAccount({ name: 'Test clinic' });
    assert.ok(created.ok);
    const accountId = created.account.id;
    const made: string[] = [];
    const keyIds: string[] = [];
    for (let i = 0; i < keys; i++) {
      const key = await accounts.createKey(accountId);
      assert.ok(key.ok);
      made.push(key.key);
      keyIds.push(key.record.id);
    }
    if (topUp !== undefined) assert.ok((await billing.topUp(accountId, topUp)).ok);
    const [key] = made;
    assert.ok(key !== undefined, 'an account needs at least one key');
    return { accountId, key, keys: made, keyIds };
  };

  return {
    app,
    db,
    accounts,
    billing,
    lexicons,
    files,
    filesDir: dir,
    rateLimit,
    newAccount,
    async newPayingAccount(opts = {}) {
      const account = await newAccount(opts);
      // The trial is used up through the service, as five short generations would use it.
      for (let i = 0; i < 5; i++) {
        const used = await billing.commitCharge(account.accountId, {
          tokens: 1,
          seconds: 1,
          characters: 5,
          language: 'en',
          requestId: `req_trial_${account.accountId}_${i}`,
          studio: false,
        });
        assert.ok(used.ok && used.billing.tokens_charged === 0);
      }
      return account;
    },
    async balanceOf(accountId) {
      const result = await billing.balance(accountId);
      assert.ok(result.ok);
      return { balance: result.balance, freeUsesRemaining: result.freeUsesRemaining };
    },
    async ledgerOf(accountId) {
      const result = await billing.listLedger(accountId, { limit: 1000 });
      assert.ok(result.ok);
      return result.entries;
    },
    async close() {
      await app.close();
      await db.close();
      if (options.filesDir === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A suite's pool and app (`withTtsApp`), set once the suite's `before` has run. */
export interface TtsSuite {
  readonly pool: EnginePool;
  readonly fixture: TtsFixture;
  /** Where the app listens on loopback (`http://127.0.0.1:port`), when asked to listen. */
  readonly base: string;
}

/**
 * Called inside a `describe`: a pool and a TTS app wired to it, built before the suite's tests
 * (listening on loopback with `listen`, for clients that dial it) and closed after them.
 */
export function withTtsApp(options: { readonly listen?: boolean } = {}): TtsSuite {
  const suite = {} as { pool: EnginePool; fixture: TtsFixture; base: string };
  before(async () => {
    suite.pool = await startTestPool();
    suite.fixture = await buildTtsTestApp({ pool: () => suite.pool });
    if (options.listen) suite.base = await listenOnLoopback(suite.fixture.app);
  });
  after(async () => {
    await suite.fixture?.close();
    await suite.pool?.close();
  });
  return suite;
}

/** Every job `pool` is given from now on, in order, with the signal and deadline each carried. */
export function recordJobs(pool: EnginePool): SynthesisJob[] {
  const jobs: SynthesisJob[] = [];
  const synthesize = pool.synthesize.bind(pool);
  pool.synthesize = (job) => {
    jobs.push(job);
    return synthesize(job);
  };
  return jobs;
}

/**
 * Listens on a free loopback port, for tests that need a real socket (once per app, however many
 * tests ask); resolves the base URL.
 */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Headers for a JSON POST with an API key. */
export function withKey(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

/**
 * Checks an error response: its status, `error.code`, `error.param` (null when not given), a
 * JSON body, and that `error.request_id` is the response's X-Request-Id. Returns the error object.
 */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  param: string | null = null,
): ReturnType<typeof errorOf> {
  assert.equal(response.statusCode, status, response.body);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const error = errorOf(response);
  assert.equal(error.code, code, response.body);
  assert.equal(error.param, param, response.body);
  assert.ok(error.message.length > 0);
  return error;
}

/** Round-robin over an account's keys, so a long run of requests stays under the per-key limit. */
export function rotate(keys: readonly string[]): () => string {
  let next = 0;
  return () => {
    const key = keys[next++ % keys.length];
    assert.ok(key !== undefined);
    return key;
  };
}

/** The error body of a response, after checking that its request id is the response's. */
function errorOf(response: LightMyRequestResponse): {
  code: string;
  message: string;
  param: string | null;
  request_id: string;
  [detail: string]: unknown;
} {
  const body = response.json();
  assert.equal(typeof body.error?.code, 'string', response.body);
  assert.match(String(response.headers['x-request-id']), /^req_/);
  assert.equal(body.error.request_id, response.headers['x-request-id']);
  return body.error;
}

/**
 * Polls `condition` every few milliseconds. Gives up with an error after about `attempts` polls
 * (20 s by default), so a broken condition fails its test instead of keeping the process alive.
 */
export async function waitUntil(condition: () => boolean, what: string, attempts = 10_000): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i >= attempts) throw new Error(`gave up waiting until ${what}`);
    await sleep(2);
  }
}

/**
 * Gives every worker of `pool` a long clause and resolves once each has taken its own, so
 * that the next request's clauses wait in the queue (visible as `pool.queued`) until
 * `release` cancels the long ones. `busy` settles once they have stopped.
 */
export async function occupyEveryWorker(
  pool: EnginePool,
): Promise<{ busy: Promise<void>; release: () => void }> {
  const controller = new AbortController();
  // espeak-ng hands its audio over while it speaks, so a cancel stops it within a chunk; Flite
  // would render the whole clause first.
  const voice = findVoice('fr', 0);
  assert.ok(voice);
  const long = 'Cette phrase occupe un moteur pendant un long moment. '.repeat(1500);
  const jobs = Array.from({ length: pool.size }, async () => {
    try {
      for await (const _ of pool.synthesize({
        input: { kind: 'text', text: long },
        voice: voice.engineVoice,
        output: { sampleRate: voice.sampleRate, encoding: 'pcm_s16le' },
        signal: controller.signal,
      })) {
        // the audio is not wanted
      }
    } catch {
      // cancelled by release()
    }
  });
  // A worker still finishing an earlier job would leave one of these queued for a moment.
  await waitUntil(() => pool.queued === 0, 'every worker has taken a long clause');
  return {
    busy: Promise.all(jobs).then(() => {}),
    release: () => controller.abort(new Error('released')),
  };
}

/**
 * Speakable English of exactly `codePoints` characters (Unicode code points), ending in a letter
 * so that trimming keeps its length.
 */
export function textOfLength(codePoints: number): string {
  const sentence = 'Good morning and welcome to the clinic. ';
  const text = sentence.repeat(Math.ceil(codePoints / sentence.length)).slice(0, codePoints);
  return text.endsWith(' ') ? `${text.slice(0, -1)}a` : text;
}
