import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Loopback by default: expose the service through a reverse proxy, or set HOST=0.0.0.0.
  HOST: z.string().min(1).default('127.0.0.1'),
  // The address clients reach the service at; output_url is built from it.
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
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
  CHARS_PER_TOKEN: z.coerce.number().int().min(1).max(100_000).default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Readonly<{
  port: number;
  host: string;
  /** Without a trailing slash. */
  publicBaseUrl: string;
  /** Absolute; holds the SQLite database and the generated files. */
  dataDir: string;
  /** The embedded SQLite database, inside the data directory. */
  databaseFile: string;
  /** Generated WAV files, inside the data directory. */
  generatedDir: string;
  fileLifetimeMs: number;
  /** Engine worker threads; default: one per core. */
  poolSize: number;
  /** The token rule: 1 token per started `charsPerToken` characters. */
  charsPerToken: number;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
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
    databaseFile: resolve(data.DATA_DIR, 'ijwi.sqlite'),
    generatedDir: resolve(data.DATA_DIR, 'generated'),
    fileLifetimeMs: data.FILE_LIFETIME_HOURS * 3_600_000,
    poolSize: data.POOL_SIZE,
    charsPerToken: data.CHARS_PER_TOKEN,
    logLevel: data.LOG_LEVEL,
  });
}
