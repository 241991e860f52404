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
