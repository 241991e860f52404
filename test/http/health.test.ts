import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTestApp } from '../helpers/build-test-app.ts';

describe('GET /api/v1/health.php', () => {
  it('is 200 and ready when every check passes', async () => {
    const app = await buildTestApp({
      healthChecks: { engine: () => true, storage: async () => true as const },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      status: 'ready',
      version: '0.0.0-test',
      checks: { engine: 'ok', storage: 'ok' },
    });
    await app.close();
  });

  it('is 503 with the reason while the engine warms up', async () => {
    const app = await buildTestApp({ healthChecks: { engine: () => 'warming up' } });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), {
      status: 'not_ready',
      version: '0.0.0-test',
      checks: { engine: 'warming up' },
    });
    await app.close();
  });

  it('reports a check that throws as failed, without its message', async () => {
    const app = await buildTestApp({
      healthChecks: {
        engine: () => true,
        database: () => {
          throw new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2');
        },
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 503);
    assert.equal(response.json().checks.database, 'failed');
    assert.doesNotMatch(response.body, /ECONNREFUSED|hunter2|10\.0\.0\.5/);
    await app.close();
  });

  it('stays 200 and ready with a degraded check, which shows its reason in its place', async () => {
    const app = await buildTestApp({
      healthChecks: {
        engine: () => true,
        rate_limit: async () => ({
          degraded: 'redis unreachable (ECONNREFUSED); per-instance limits in use',
        }),
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      status: 'ready',
      version: '0.0.0-test',
      checks: {
        engine: 'ok',
        rate_limit: 'degraded: redis unreachable (ECONNREFUSED); per-instance limits in use',
      },
    });
    await app.close();
  });

  it('is 503 when a check fails, even beside a degraded one', async () => {
    const app = await buildTestApp({
      healthChecks: {
        engine: () => true,
        database: () => 'query failed (ECONNREFUSED)',
        rate_limit: () => ({ degraded: 'redis unreachable' }),
      },
    });
    const response = await app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json().checks, {
      engine: 'ok',
      database: 'query failed (ECONNREFUSED)',
      rate_limit: 'degraded: redis unreachable',
    });
    await app.close();
  });
});
