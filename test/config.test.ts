import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('defaults the pool to one worker per core', () => {
    const config = loadConfig({});
    assert.equal(config.poolSize, availableParallelism());
    assert.ok(Object.isFrozen(config));
  });

  it('names every bad variable at once', () => {
    assert.throws(
      () => loadConfig({ POOL_SIZE: 'many', LOG_LEVEL: 'loud' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some((p) => p.startsWith('POOL_SIZE')) &&
        error.problems.some((p) => p.startsWith('LOG_LEVEL')),
    );
  });
});

describe('loadConfig: addresses and storage', () => {
  it('builds the public base URL from host and port unless one is given, without a trailing slash', () => {
    assert.equal(loadConfig({ PORT: '9000' }).publicBaseUrl, 'http://127.0.0.1:9000');
    assert.equal(
      loadConfig({ PUBLIC_BASE_URL: 'https://voice.example.rw/' }).publicBaseUrl,
      'https://voice.example.rw',
    );
  });

  it('refuses a public base URL that is not http(s), and a non-positive file lifetime', () => {
    assert.throws(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://x' }), /PUBLIC_BASE_URL/);
    assert.throws(() => loadConfig({ FILE_LIFETIME_HOURS: '0' }), /FILE_LIFETIME_HOURS/);
  });

  it('defaults to 24-hour files under ./data and the 100-characters-per-token rule', () => {
    const config = loadConfig({});
    assert.equal(config.fileLifetimeMs, 24 * 3_600_000);
    assert.match(config.dataDir, /\/data$/);
    assert.equal(config.charsPerToken, 100);
  });
});

describe('loadConfig: shared stores', () => {
  it('defaults to the embedded SQLite file in DATA_DIR and the in-process rate limit', () => {
    const config = loadConfig({ DATA_DIR: '/srv/ijwi' });
    assert.deepEqual(config.database, { kind: 'sqlite', file: '/srv/ijwi/ijwi.sqlite' });
    assert.equal(config.redisUrl, null);
    assert.ok(Object.isFrozen(config.database));
  });

  it('takes PostgreSQL from DATABASE_URL and Redis from REDIS_URL, under either scheme name', () => {
    for (const url of ['postgres://ijwi:pw@db.internal:5432/ijwi', 'postgresql://db.internal/ijwi']) {
      assert.deepEqual(loadConfig({ DATABASE_URL: url }).database, { kind: 'postgres', url });
    }
    for (const url of ['redis://cache.internal:6379/0', 'rediss://:pw@cache.internal:6380']) {
      assert.equal(loadConfig({ REDIS_URL: url }).redisUrl, url);
    }
  });

  it('refuses other schemes, non-URLs and empty values, naming what is allowed and never the value', () => {
    const bad = { DATABASE_URL: 'mysql://root:hunter2@db/ijwi', REDIS_URL: 'hunter2' };
    assert.throws(
      () => loadConfig(bad),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.deepEqual(error.problems, [
          'DATABASE_URL: must be a postgres:// or postgresql:// URL for PostgreSQL',
          'REDIS_URL: must be a redis:// or rediss:// URL for Redis',
        ]);
        assert.ok(!error.message.includes('hunter2'));
        return true;
      },
    );
    assert.throws(() => loadConfig({ DATABASE_URL: '' }), /DATABASE_URL: must be a postgres:\/\//);
    assert.throws(() => loadConfig({ REDIS_URL: '' }), /REDIS_URL: must be a redis:\/\//);
  });
});
