import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withErrorCode } from '../error-code.ts';
import type { RateLimitDecision, RateLimitStore } from './rate-limit-store.ts';

// The whole decision runs in Redis as one script, so it is atomic across every instance: no two
// requests can both see the 30th slot free. One sorted set per key, scored by acceptance time in
// milliseconds: drop what has left the window (score <= now - window, as the in-process store
// does), count, add when under the limit, and report what is left and when the oldest entry
// leaves. Refused requests are not added. The key expires a window after its newest entry, so
// idle keys cost nothing. Without a clock argument the script reads the server's clock, so all
// instances share one clock whatever their own drift.
const HIT_SCRIPT = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = ARGV[4] and tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + 1
  allowed = 1
end
local reset = window
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return { allowed, math.max(0, limit - count), math.max(0, reset) }
`;
const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

/** Options for `RedisRateLimitStore`. */
export interface RedisRateLimitStoreOptions {
  /** Put before every key, so several services or test runs can share one Redis; default `ijwi:rate:`. */
  readonly prefix?: string;
  /** For tests only: a clock in milliseconds. By default the Redis server's clock decides. */
  readonly now?: () => number;
}

function toDecision(reply: unknown, limit: number): RateLimitDecision {
  if (!Array.isArray(reply) || reply.length !== 3 || !reply.every((v) => typeof v === 'number')) {
    throw new Error('unexpected reply from the rate-limit script');
  }
  const [allowed, remaining, resetMs] = reply as [number, number, number];
  return { allowed: allowed === 1, limit, remaining, resetMs };
}

/**
 * The rolling window shared by every instance, in Redis: the same exact rule as the in-process
 * store (at most `limit` accepted in any `windowMs`), decided atomically by one server-side script.
 * Throws when Redis cannot answer; wrap it in `FailOpenRateLimitStore` to keep serving.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #now: (() => number) | undefined;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'ijwi:rate:';
    this.#now = options.now;
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    // The member must be unique, or two requests in the same millisecond would count once.
    const args = [String(limit), String(windowMs), randomBytes(6).toString('base64url')];
    if (this.#now !== undefined) args.push(String(this.#now()));
    const redisKey = this.#prefix + key;
    let reply: unknown;
    try {
      reply = await this.#redis.evalsha(HIT_SHA, 1, redisKey, ...args);
    } catch (error) {
      // First use on this server (or after a restart or SCRIPT FLUSH): send the script itself,
      // which also caches it for the next calls.
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      reply = await this.#redis.eval(HIT_SCRIPT, 1, redisKey, ...args);
    }
    return toDecision(reply, limit);
  }

  async check(): Promise<true | string> {
    try {
      await this.#redis.ping();
      return true;
    } catch (error) {
      return withErrorCode('redis unreachable', error);
    }
  }
}
