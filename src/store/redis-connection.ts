import { Redis } from 'ioredis';

/** Options for `connectRedis`. */
export interface RedisConnectionOptions {
  /** The longest pause between reconnection attempts; default 2000 ms. */
  readonly maxReconnectDelayMs?: number;
  /** How long one command may take before it fails; default 1000 ms. */
  readonly commandTimeoutMs?: number;
}

/**
 * A Redis client for stores that must fail fast rather than wait: while the connection is down,
 * commands are refused at once instead of queueing (so a caller can fall back without delay), a
 * command that gets no reply within the timeout fails, and the client keeps reconnecting in the
 * background, forever, with a capped delay. `url` is redis:// or rediss:// (TLS).
 */
export function connectRedis(url: string, options: RedisConnectionOptions = {}): Redis {
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, maxDelay),
  });
  // Connection errors reach the callers as failed commands and failed health checks; without a
  // listener the client would also print every reconnection failure to the console.
  redis.on('error', () => {});
  return redis;
}
