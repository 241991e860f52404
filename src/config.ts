import { availableParallelism } from 'node:os';
import { z } from 'zod';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  // Loopback by default: expose the service through a reverse proxy, or set HOST=0.0.0.0.
  HOST: z.string().min(1).default('127.0.0.1'),
  POOL_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(() => availableParallelism()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Readonly<{
  port: number;
  host: string;
  /** Engine worker threads; default: one per core. */
  poolSize: number;
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
  return Object.freeze({
    port: data.PORT,
    host: data.HOST,
    poolSize: data.POOL_SIZE,
    logLevel: data.LOG_LEVEL,
  });
}
