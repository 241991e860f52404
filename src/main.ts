import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { AccountService } from './accounts/accounts.ts';
import { BillingService } from './accounts/billing.ts';
import { DictionaryService } from './accounts/dictionaries.ts';
import { SessionService } from './accounts/sessions.ts';
import { StudioAudioService } from './accounts/studio-audio.ts';
import { TopUpRequestService } from './accounts/topup-requests.ts';
import { UserService } from './accounts/users.ts';
import {
  configuredPlayUrlKey,
  freshPlayUrlKey,
  PlayUrlSigner,
  storedPlayUrlKey,
} from './calls/play-url-signer.ts';
import { PLAY_URL_MAX_SECONDS, PlayUrls } from './calls/play-urls.ts';
import { ConfigError, loadConfig, type MetricsConfig } from './config.ts';
import { startMetricsListener } from './http/metrics-listener.ts';
import { type Metrics, type MetricsExposition, noMetrics } from './metrics/metrics.ts';
import { EncodingThreads } from './speech/audio/encoding-threads.ts';
import { ClauseCache } from './speech/cache/clause-cache.ts';
import { EnginePool } from './speech/pool/engine-pool.ts';
import { warmUpPlan } from './speech/pool/warm-up.ts';
import { reportNormalizationFailures } from './speech/text/normalization-failures.ts';
import { loadWordListsInThread, wordListsRead } from './speech/text/word-language/lexicons.ts';
import { loadAssignedVoices } from './speech/voices/assigned-voices.ts';
import { allVoices, useAssignedVoices } from './speech/voices/voices.ts';
import { webRepositories } from './store/db/web-repositories.ts';
import { startSweeper } from './store/files/file-store.ts';
import { openFileStore } from './store/files/open-file-store.ts';
import {
  type FailOpenChange,
  FailOpenRateLimitStore,
} from './store/rate-limit/fail-open-rate-limit-store.ts';
import { MemoryRateLimitStore } from './store/rate-limit/memory-rate-limit-store.ts';
import type { RateLimitStore } from './store/rate-limit/rate-limit-store.ts';

// The composition root: config -> adapters -> app -> listen, and a graceful shutdown.

const SHUTDOWN_GRACE_MS = 15_000;
const SWEEP_INTERVAL_MS = 10 * 60_000;
// Fixed by the API contract.
const API_LIMITS = { fileMaxChars: 10_000, streamMaxChars: 4_000, requestsPerMinute: 30 } as const;

/**
 * The Prometheus recorder when metrics are on. The library is loaded only then: an instance
 * without metrics neither loads it nor records anything.
 */
async function openMetrics(
  config: MetricsConfig | null,
): Promise<{ metrics: Metrics; exposition: MetricsExposition | undefined }> {
  if (config === null) return { metrics: noMetrics, exposition: undefined };
  const { PrometheusMetrics } = await import('./metrics/prometheus.ts');
  const prometheus = new PrometheusMetrics();
  return { metrics: prometheus, exposition: prometheus };
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** A Redis connection and the rate limit store on it; the client is loaded only when Redis is configured. */
async function openRedisRateLimit(
  url: string,
  prefix: string,
): Promise<{ redis: Redis; store: RateLimitStore }> {
  const [{ connectRedis }, { RedisRateLimitStore }] = await Promise.all([
    import('./store/redis-connection.ts'),
    import('./store/rate-limit/redis-rate-limit-store.ts'),
  ]);
  const redis = connectRedis(url);
  return { redis, store: new RedisRateLimitStore(redis, { prefix }) };
}

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }

  // The voice packs assigned to voices are read once, before anything reads the catalogue; a pack
  // that cannot be spoken leaves its built-in voice in place, and the log says why.
  const assigned = await loadAssignedVoices(config.voicesDir);
  useAssignedVoices(assigned.voices);
  const { metrics, exposition } = await openMetrics(config.metrics);
  // The engine workers start first and warm in parallel while the stores open and the app is
  // built: the warm-up is most of the time from start to ready. The compressed formats' encoders
  // run on threads of their own, apart from the engines': they start with the first stream that
  // needs one, and close after the pool.
  const encoders = new EncodingThreads(1);
  const starting = EnginePool.starting({
    size: config.poolSize,
    encoders,
    workerNiceness: config.engineNiceness,
    warmUp: warmUpPlan(allVoices()),
    metrics,
    ...(config.neuralMaxCalls === null ? {} : { heavyCalls: { neural: config.neuralMaxCalls } }),
  });
  const pool = starting.pool;
  // The word lists the language of a word is decided by are read in a thread of their own
  // meanwhile, so that no caller's first words wait for them and this thread is free to start.
  const wordLists = loadWordListsInThread();
  // The web framework and the database's modules, the heaviest to load, load while the workers warm.
  const [{ buildApp }, { openDatabase }] = await Promise.all([
    import('./http/app.ts'),
    import('./store/db/open-database.ts'),
  ]);
  const db = await openDatabase(config.database);
  const files = await openFileStore(config.fileStore, config.fileLifetimeMs);
  // With Redis the limit is shared by all instances; when Redis is down it fails open to
  // per-instance limits and health says so (the decided design). Switches are logged once the
  // logger exists. The Redis client is loaded only when Redis is configured.
  const shared =
    config.redisUrl === null
      ? undefined
      : await openRedisRateLimit(config.redisUrl, `${config.redisPrefix}rate:`);
  const redis = shared?.redis;
  let reportRateLimit = (_change: FailOpenChange): void => {};
  const rateLimit: RateLimitStore =
    shared === undefined
      ? new MemoryRateLimitStore()
      : new FailOpenRateLimitStore(shared.store, new MemoryRateLimitStore(), {
          onChange: (change) => reportRateLimit(change),
        });
  const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
  const billing = new BillingService({ accounts: db.accounts, ledger: db.ledger, metrics });
  const lexicons = new DictionaryService(db.dictionaries);
  const clauseCache = new ClauseCache(config.clauseCacheBytes);
  metrics.observeClauseCache(() => clauseCache.stats());
  const { users, sessions, studioAudio } = webRepositories(db.kysely);
  const playUrls = new PlayUrls(db.playUrls, billing, {
    maxPerAccount: config.playUrls.perAccount,
    charsPerToken: config.charsPerToken,
  });
  const playKey =
    config.playUrls.secret === null
      ? await db.playUrls.signingKey(freshPlayUrlKey(), new Date().toISOString())
      : undefined;
  const app = await buildApp({
    version: readVersion(),
    healthChecks: {
      engine: () => (pool.ready && wordListsRead() ? true : 'warming up'),
      database: () => db.ping(),
      rate_limit: () => rateLimit.check(),
      storage: () => files.check(),
    },
    limits: API_LIMITS,
    files,
    trustedProxies: config.trustedProxies,
    tts: {
      pool: () => pool,
      accounts,
      billing,
      charsPerToken: config.charsPerToken,
      rateLimit,
      publicBaseUrl: config.publicBaseUrl,
      lexicons,
      supportEmail: config.supportEmail,
      clauseCache,
    },
    play: {
      urls: playUrls,
      signer: new PlayUrlSigner(
        playKey === undefined
          ? configuredPlayUrlKey(config.playUrls.secret ?? '')
          : storedPlayUrlKey(playKey),
      ),
      // A URL never outlives the audio it keeps.
      maxLifetimeSeconds: Math.min(PLAY_URL_MAX_SECONDS, Math.floor(config.fileLifetimeMs / 1000)),
    },
    web: {
      users: new UserService({ users }),
      sessions: new SessionService({ sessions }),
      accounts,
      billing,
      lexicons,
      topUps: new TopUpRequestService(db.topUpRequests, billing),
      studioAudio: new StudioAudioService(studioAudio),
    },
    metrics,
    ...(exposition && config.metrics?.token
      ? { metricsRoute: { exposition, token: config.metrics.token } }
      : {}),
    logger: { level: config.logLevel },
  });
  reportRateLimit = (change) => {
    if (change.shared) app.log.info('rate limit: shared store reachable again');
    else app.log.warn({ reason: change.reason }, 'rate limit: shared store unreachable; per-instance limits');
  };
  // A normaliser pass that throws is a bug: here the call goes on with that pass's match as
  // written, and the log and a metric say so (everywhere else, tests included, it throws).
  reportNormalizationFailures(({ language, pass, error }) => {
    app.log.error({ err: error, language, pass }, 'normalisation pass failed; its match left as written');
    metrics.normalizationFailed(language, pass);
  });
  app.log.info(
    {
      database: config.database.kind,
      rateLimit: redis === undefined ? 'in-process' : 'redis',
      files: config.fileStore.kind,
    },
    'stores opened',
  );
  for (const voice of assigned.voices) {
    app.log.info(
      { voice: `${voice.language}/${voice.speakerId}`, pack: voice.pack?.id },
      'voice pack assigned',
    );
  }
  for (const problem of assigned.problems)
    app.log.error({ problem }, 'voice pack not used; built-in voice kept');
  const stopSweeper = startSweeper(files, SWEEP_INTERVAL_MS, (err) =>
    app.log.error({ err }, 'file sweep failed'),
  );
  const stopPlaySweeper = startSweeper(
    { sweep: () => playUrls.sweep((id, format) => files.delete(id, format)) },
    SWEEP_INTERVAL_MS,
    (err) => app.log.error({ err }, 'play URL sweep failed'),
  );

  // Listen while the engines warm: health answers 503 until one worker is warm.
  await app.listen({ port: config.port, host: config.host });
  const listener = config.metrics?.listener;
  const metricsListener =
    exposition && listener
      ? await startMetricsListener({ exposition, ...listener, token: config.metrics?.token ?? null })
      : undefined;
  if (metricsListener)
    app.log.info({ host: listener?.host, port: metricsListener.port }, 'metrics listening');
  metrics.observePool(pool);
  // Ready as soon as one worker is warm: it serves every voice, and the others join as they warm.
  await Promise.all([starting.firstWarm, wordLists]);
  app.log.info({ workers: pool.size }, 'engines warmed; ready');
  // Logs are JSON on standard output; the address, once, is for the person who started the service.
  process.stderr.write(`Ijwi is ready at ${config.publicBaseUrl}/\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new requests, letting running ones finish');
    const forced = setTimeout(() => {
      app.log.warn('grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    stopSweeper();
    stopPlaySweeper();
    await app.close();
    await metricsListener?.close();
    await pool?.close();
    await encoders.close();
    await db.close();
    redis?.disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // A worker that fails to start would likely fail again: the service stops, as when the first did.
  await starting.allWarm.catch((error: unknown) => {
    if (stopping) return;
    throw error;
  });
  if (stopping) return;
  for (const failure of pool.warmUpFailures) app.log.error({ failure }, 'a voice failed its warm-up');
  app.log.info({ workers: pool.size }, 'every engine worker warmed');
}

await main();
