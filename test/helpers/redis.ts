import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { probeService, type ServiceProbe } from './external-services.ts';

// The Redis the rate-limit tests share with anything else on the server: every test file writes
// under its own random key prefix and deletes its keys at the end.

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The Redis the tests use, probed once per test file. */
export const redis: ServiceProbe = await probeService('Redis', 'TEST_REDIS_URL', redisUrl, async (url) => {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 2000, retryStrategy: () => null });
  // connect() rejects with a generic "Connection is closed"; the cause arrives as an event.
  let cause: unknown;
  client.on('error', (error) => {
    cause ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw cause ?? error;
  } finally {
    client.disconnect();
  }
});

/** A key prefix no other test run uses. */
export function testKeyPrefix(): string {
  return `ijwi_test_${randomBytes(6).toString('hex')}:`;
}

/** Resolves once `client` can take commands (clients that refuse commands while connecting). */
export async function ready(client: Redis): Promise<void> {
  if (client.status !== 'ready') await once(client, 'ready');
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
