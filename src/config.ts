import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { FileStoreSource } from './store/files/open-file-store.ts';

/**
 * A URL of one of `protocols` (with the colon, e.g. 'redis:'). The message names what is allowed
 * and never echoes the value, which may hold a password.
 */
function serviceUrl(protocols: readonly string[], what: string) {
  const allowed = protocols.map((p) => `${p}//`).join(' or ');
  return z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a ${allowed} URL for ${what}` },
  );
}

const schema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    // Loopback by default: expose the service through a reverse proxy, or set HOST=0.0.0.0.
    HOST: z.string().min(1).default('127.0.0.1'),
    // The address clients reach the service at; output_url is built from it.
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    // Where customers write to buy tokens or get help: on the landing page, the dashboard and in
    // the 402 message. Unset: the pages say to ask the operator of this service.
    SUPPORT_EMAIL: z.email().max(254).optional(),
    // Unset: the embedded SQLite file in DATA_DIR. Set: PostgreSQL, shared by every instance. An
    // empty value is an error, not "unset": silently falling back to a per-instance file would split
    // the ledger between instances.
    DATABASE_URL: serviceUrl(['postgres:', 'postgresql:'], 'PostgreSQL').optional(),
    // Unset: the in-process rate limit (one instance). Set: Redis, shared by every instance.
    REDIS_URL: serviceUrl(['redis:', 'rediss:'], 'Redis').optional(),
    // Put before every Redis key and channel, so several deployments (or test runs) can share one
    // Redis without counting each other's requests.
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 letters, digits, or _ . : -')
      .default('ijwi:'),
    // Set: generated files go to this S3-compatible bucket, shared by every instance, so any instance
    // serves a file another made. Unset: the local folder DATA_DIR/generated (one instance, or a
    // folder every instance mounts). Credentials come from the AWS SDK's own chain
    // (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a shared profile, an instance role...).
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z, 0-9, . and -)')
      .optional(),
    // Unset: AWS itself. Set: another S3-compatible service (MinIO, Ceph, R2...), addressed path-style.
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    // Put before every object key; the sweeper deletes expired files under it and nothing else.
    S3_PREFIX: z
      .string()
      .max(200)
      .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "must be letters, digits and ! _ . * ' ( ) / -")
      .default('generated/'),
    FILE_LIFETIME_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 365)
      .default(24),
    POOL_SIZE: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(() => availableParallelism()),
    // Calls the neural voices take at once, all of them together; unset: 4 per worker they may use
    // (all workers but one). Past it a request for a neural voice gets 503 voice_busy.
    NEURAL_MAX_CALLS: z.coerce.number().int().min(1).max(10_000).optional(),
    // How much lower the engine threads' scheduling priority is than the request thread's, as a
    // nice value added to theirs (0 to 19; 0: the same). Under load, requests are then accepted,
    // authorised and answered from the clause cache ahead of the engines' later clauses; but the
    // engines also yield to every other process of the machine, so it is for a host of its own.
    ENGINE_NICENESS: z.coerce.number().int().min(0).max(19).default(0),
    // Memory for the per-account clause cache (the audio of repeated phrases), in MB; 0 turns it
    // off. Small by default: the service's memory target counts it.
    CLAUSE_CACHE_MB: z.coerce.number().min(0).max(65_536).default(8),
    CHARS_PER_TOKEN: z.coerce.number().int().min(1).max(100_000).default(100),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    // The reverse proxies whose X-Forwarded-For (client address) the service believes, as
    // comma-separated addresses or CIDR ranges. Unset: nobody's; the address is the socket's.
    TRUST_PROXY: z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== ''),
      )
      .pipe(
        z
          .array(
            z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
              error: 'must be comma-separated IP addresses or CIDR ranges of your proxies',
            }),
          )
          .min(1, 'must name at least one proxy address'),
      )
      .optional(),
    // Metrics are off unless one of these is set. With a token, GET /metrics on the service's own
    // port answers a scraper that sends it as a bearer token; with a port, a listener of its own
    // serves them (on loopback unless METRICS_HOST says otherwise), with the token too if set.
    METRICS_TOKEN: z
      .string()
      .regex(/^[A-Za-z0-9._~+/=-]{32,512}$/, 'must be 32-512 characters of A-Z a-z 0-9 . _ ~ + / = -')
      .optional(),
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    // The key playable URLs are signed with (HMAC-SHA-256), the same on every instance. Unset: a
    // random key made once and kept in the database (the data directory's SQLite file, or the
    // PostgreSQL every instance shares), so instances check each other's URLs either way; set it
    // to keep the key out of the database. Changing it ends the URLs signed before.
    PLAY_URL_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9._~+/=-]{32,512}$/, 'must be 32-512 characters of A-Z a-z 0-9 . _ ~ + / = -')
      .optional(),
    // Playable URLs an account may have unexpired at once.
    PLAY_URLS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    METRICS_HOST: z.string().min(1).optional(),
  })
  .superRefine((env, context) => {
    if (env.METRICS_HOST !== undefined && env.METRICS_PORT === undefined) {
      context.addIssue({ code: 'custom', path: ['METRICS_HOST'], message: 'is set but METRICS_PORT is not' });
    }
    if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT) {
      context.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT (set METRICS_TOKEN to serve metrics on PORT)',
      });
    }
    // An S3 setting without a bucket is a half-done configuration: say so rather than quietly
    // keeping files on one instance's disk.
    if (env.S3_BUCKET === undefined && env.S3_ENDPOINT !== undefined) {
      context.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: 'is set but S3_BUCKET is not' });
    }
  });

export type Config = Readonly<{
  port: number;
  host: string;
  /** Without a trailing slash. */
  publicBaseUrl: string;
  /** Absolute; holds the SQLite database (when no DATABASE_URL is set) and the generated files. */
  dataDir: string;
  /** The operator's contact for customers, or null when none is configured. */
  supportEmail: string | null;
  /**
   * The database: PostgreSQL when DATABASE_URL is set, else the embedded SQLite file inside the
   * data directory. The URL may carry a password: never log it.
   */
  database: Readonly<{ kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }>;
  /** The shared rate-limit store, or null for the in-process one. May carry a password: never log it. */
  redisUrl: string | null;
  /** Before every Redis key: `<prefix>rate:<key>`. */
  redisPrefix: string;
  /** The local folder for generated WAV files, inside the data directory. */
  generatedDir: string;
  /** The installed neural voice packs of this instance, inside the data directory. */
  voicesDir: string;
  /** Where generated files live: the local folder (`generatedDir`), or an S3 bucket (`S3_BUCKET`). */
  fileStore: Readonly<FileStoreSource>;
  fileLifetimeMs: number;
  /** Engine worker threads; default: one per core. */
  poolSize: number;
  engineNiceness: number;
  /** Calls in flight the neural voices take; null: the pool's default for its size. */
  neuralMaxCalls: number | null;
  /** The bound on the bytes the clause cache holds (`CLAUSE_CACHE_MB`); 0: no cache. */
  clauseCacheBytes: number;
  /** The token rule: 1 token per started `charsPerToken` characters. */
  charsPerToken: number;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  /** Proxies whose X-Forwarded-For is believed; empty: the client address is the socket's. */
  trustedProxies: readonly string[];
  /** Prometheus metrics, or null when they are off (neither METRICS_TOKEN nor METRICS_PORT set). */
  metrics: MetricsConfig | null;
  /** Playable URLs: the operator's signing key (a secret: never log it; null: the stored one) and the per-account bound. */
  playUrls: Readonly<{ secret: string | null; perAccount: number }>;
}>;

export type MetricsConfig = Readonly<{
  /** The bearer token a scraper must send; null: no token (only the separate port serves them). A secret: never log it. */
  token: string | null;
  /** The separate listener's port and address; null: none, metrics are on PORT behind the token. */
  listener: Readonly<{ port: number; host: string }> | null;
}>;

/** Raised with every bad variable named, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once into a frozen, typed configuration; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const { data } = parsed;
  const localUrl = `http://${data.HOST === '0.0.0.0' ? '127.0.0.1' : data.HOST}:${data.PORT}`;
  return Object.freeze({
    port: data.PORT,
    host: data.HOST,
    publicBaseUrl: (data.PUBLIC_BASE_URL ?? localUrl).replace(/\/+$/, ''),
    dataDir: resolve(data.DATA_DIR),
    supportEmail: data.SUPPORT_EMAIL ?? null,
    database: Object.freeze(
      data.DATABASE_URL === undefined
        ? { kind: 'sqlite' as const, file: resolve(data.DATA_DIR, 'ijwi.sqlite') }
        : { kind: 'postgres' as const, url: data.DATABASE_URL },
    ),
    redisUrl: data.REDIS_URL ?? null,
    redisPrefix: data.REDIS_PREFIX,
    generatedDir: resolve(data.DATA_DIR, 'generated'),
    voicesDir: resolve(data.DATA_DIR, 'voices'),
    fileStore: Object.freeze(
      data.S3_BUCKET === undefined
        ? { kind: 'local' as const, dir: resolve(data.DATA_DIR, 'generated') }
        : {
            kind: 's3' as const,
            bucket: data.S3_BUCKET,
            region: data.S3_REGION,
            endpoint: data.S3_ENDPOINT ?? null,
            prefix: data.S3_PREFIX,
          },
    ),
    fileLifetimeMs: data.FILE_LIFETIME_HOURS * 3_600_000,
    poolSize: data.POOL_SIZE,
    engineNiceness: data.ENGINE_NICENESS,
    neuralMaxCalls: data.NEURAL_MAX_CALLS ?? null,
    clauseCacheBytes: Math.round(data.CLAUSE_CACHE_MB * 1024 * 1024),
    charsPerToken: data.CHARS_PER_TOKEN,
    logLevel: data.LOG_LEVEL,
    trustedProxies: Object.freeze(data.TRUST_PROXY ?? []),
    playUrls: Object.freeze({ secret: data.PLAY_URL_SECRET ?? null, perAccount: data.PLAY_URLS_PER_ACCOUNT }),
    metrics:
      data.METRICS_TOKEN === undefined && data.METRICS_PORT === undefined
        ? null
        : Object.freeze({
            token: data.METRICS_TOKEN ?? null,
            listener:
              data.METRICS_PORT === undefined
                ? null
                : Object.freeze({ port: data.METRICS_PORT, host: data.METRICS_HOST ?? '127.0.0.1' }),
          }),
  });
}
