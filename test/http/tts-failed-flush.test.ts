import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { openSqliteDatabase } from '../../src/store/db/sqlite-database.ts';
import {
  buildTtsTestApp,
  expectError,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// An instance whose embedded database failed to flush its log to disk can confirm nothing it
// writes to the ledger any more: it refuses new charges with 503 `not_ready` (and its health check
// says why), rather than going on charging on a disk that may have lost them.

describe('TTS after the database failed to flush to disk', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let dir: string;
  let failing = false;

  before(async () => {
    pool = await startTestPool(1);
    dir = await mkdtemp(join(tmpdir(), 'ijwi-flush-'));
    const database = await openSqliteDatabase(join(dir, 'ijwi.sqlite'), {
      datasync: (file) =>
        failing ? Promise.reject(Object.assign(new Error('I/O error'), { code: 'EIO' })) : file.datasync(),
    });
    fixture = await buildTtsTestApp({ pool: () => pool, database });
  });
  after(async () => {
    await fixture.close();
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses new charges with 503 not_ready on both endpoints, charging nothing more', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const request = (url: string) =>
      fixture.app.inject({
        method: 'POST',
        url,
        headers: withKey(account.key),
        payload: { input: 'Hello there.', language: 'en' },
      });
    assert.equal((await request('/api/v1/tts-stream.php')).statusCode, 200);
    failing = true;
    // The charge whose flush fails: it was committed, and is the last one taken.
    await request('/api/v1/tts-stream.php');
    let health = await fixture.app.inject({ method: 'GET', url: '/api/v1/health.php' });
    for (let i = 0; i < 250 && health.statusCode === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      health = await fixture.app.inject({ method: 'GET', url: '/api/v1/health.php' });
    }
    assert.equal(health.statusCode, 503, health.body);
    const before = await fixture.ledgerOf(account.accountId);
    for (const url of ['/api/v1/tts-stream.php', '/api/v1/tts.php']) {
      const refused = await request(url);
      expectError(refused, 503, 'not_ready');
      assert.ok(refused.headers['retry-after'], 'Retry-After');
    }
    assert.deepEqual(await fixture.ledgerOf(account.accountId), before, 'nothing more in the ledger');
  });
});
