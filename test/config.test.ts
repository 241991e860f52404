import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('loadConfig', () => {
  it('believes no proxy unless TRUST_PROXY names them by address or range', () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.5, 172.16.0.0/12,::1' }).trustedProxies, [
      '10.0.0.5',
      '172.16.0.0/12',
      '::1',
    ]);
    for (const bad of ['', 'true', 'proxy.example', '10.0.0.0/33']) {
      assert.throws(() => loadConfig({ TRUST_PROXY: bad }), /TRUST_PROXY/, bad);
    }
  });

  it('defaults the pool to one worker per core', () => {
    const config = loadConfig({});
    assert.equal(config.poolSize, availableParallelism());
    assert.ok(Object.isFrozen(config));
  });

  it('keeps a small clause cache by default, sized in MB, off at 0', () => {
    assert.equal(loadConfig({}).clauseCacheBytes, 8 * 1024 * 1024);
    assert.equal(loadConfig({ CLAUSE_CACHE_MB: '0.5' }).clauseCacheBytes, 512 * 1024);
    assert.equal(loadConfig({ CLAUSE_CACHE_MB: '0' }).clauseCacheBytes, 0);
    for (const bad of ['-1', 'lots'])
      assert.throws(() => loadConfig({ CLAUSE_CACHE_MB: bad }), /CLAUSE_CACHE_MB/);
  });

  it('signs playable URLs with PLAY_URL_SECRET when set, 32 characters or more, and bounds them per account', () => {
    assert.deepEqual(loadConfig({}).playUrls, { secret: null, perAccount: 1000 });
    const secret = 'k'.repeat(40);
    assert.deepEqual(loadConfig({ PLAY_URL_SECRET: secret, PLAY_URLS_PER_ACCOUNT: '50' }).playUrls, {
      secret,
      perAccount: 50,
    });
    for (const bad of ['', 'short', `${'k'.repeat(40)} space`])
      assert.throws(() => loadConfig({ PLAY_URL_SECRET: bad }), /PLAY_URL_SECRET/, bad);
    for (const bad of ['0', '-5', '1.5', 'many'])
      assert.throws(() => loadConfig({ PLAY_URLS_PER_ACCOUNT: bad }), /PLAY_URLS_PER_ACCOUNT/, bad);
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

  it('puts Redis keys under `ijwi:` unless REDIS_PREFIX names another namespace', () => {
    assert.equal(loadConfig({}).redisPrefix, 'ijwi:');
    assert.equal(loadConfig({ REDIS_PREFIX: 'ijwi-staging:' }).redisPrefix, 'ijwi-staging:');
    assert.throws(() => loadConfig({ REDIS_PREFIX: 'has space' }), /REDIS_PREFIX/);
    assert.throws(() => loadConfig({ REDIS_PREFIX: '' }), /REDIS_PREFIX/);
  });
});

describe('loadConfig: generated-file storage', () => {
  it('keeps files in DATA_DIR/generated unless S3_BUCKET is set', () => {
    assert.deepEqual(loadConfig({ DATA_DIR: '/srv/ijwi' }).fileStore, {
      kind: 'local',
      dir: '/srv/ijwi/generated',
    });
  });

  it('takes the bucket, endpoint, region and prefix of an S3-compatible store', () => {
    assert.deepEqual(loadConfig({ S3_BUCKET: 'ijwi-audio' }).fileStore, {
      kind: 's3',
      bucket: 'ijwi-audio',
      region: 'us-east-1',
      endpoint: null,
      prefix: 'generated/',
    });
    assert.deepEqual(
      loadConfig({
        S3_BUCKET: 'ijwi-audio',
        S3_ENDPOINT: 'https://minio.internal:9000',
        S3_REGION: 'af-south-1',
        S3_PREFIX: 'prod/audio/',
      }).fileStore,
      {
        kind: 's3',
        bucket: 'ijwi-audio',
        region: 'af-south-1',
        endpoint: 'https://minio.internal:9000',
        prefix: 'prod/audio/',
      },
    );
  });

  it('refuses a bad bucket name, a non-http endpoint, and an endpoint without a bucket', () => {
    assert.throws(() => loadConfig({ S3_BUCKET: 'Not_A_Bucket' }), /S3_BUCKET/);
    assert.throws(() => loadConfig({ S3_BUCKET: 'ijwi-audio', S3_ENDPOINT: 'ftp://x' }), /S3_ENDPOINT/);
    assert.throws(
      () => loadConfig({ S3_ENDPOINT: 'http://minio:9000' }),
      /S3_ENDPOINT: is set but S3_BUCKET is not/,
    );
  });
});

describe('loadConfig: metrics', () => {
  const token = 'a'.repeat(40);

  it('leaves metrics off unless METRICS_TOKEN or METRICS_PORT is set', () => {
    assert.equal(loadConfig({}).metrics, null);
    assert.deepEqual(loadConfig({ METRICS_TOKEN: token }).metrics, { token, listener: null });
  });

  it('binds the metrics port to loopback unless METRICS_HOST names another address', () => {
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, {
      token: null,
      listener: { port: 9464, host: '127.0.0.1' },
    });
    assert.deepEqual(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.7', METRICS_TOKEN: token }).metrics,
      {
        token,
        listener: { port: 9464, host: '10.0.0.7' },
      },
    );
  });

  it('refuses a short or odd token, a host without a port, and the service port twice', () => {
    for (const bad of ['short', `${'a'.repeat(31)}`, `${token} x`, `${token}\n`]) {
      assert.throws(() => loadConfig({ METRICS_TOKEN: bad }), /METRICS_TOKEN/, bad);
    }
    assert.throws(
      () => loadConfig({ METRICS_HOST: '0.0.0.0' }),
      /METRICS_HOST: is set but METRICS_PORT is not/,
    );
    assert.throws(
      () => loadConfig({ PORT: '9000', METRICS_PORT: '9000' }),
      /METRICS_PORT: must differ from PORT/,
    );
  });
});
