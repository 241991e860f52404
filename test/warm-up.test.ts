import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AccountService } from '../src/accounts/accounts.ts';
import { POOL_WORKER_NAME } from '../src/speech/pool/workers.ts';
import { openDatabase } from '../src/store/db/open-database.ts';
import { holdWorkers, inspectorUrl } from './helpers/held-workers.ts';
import { startService } from './helpers/service-process.ts';

// The warm-up, through the service as `npm start` runs it: ready, and speaking, once one engine
// worker is warm, while another has not started its warm-up (held at its first line through the
// inspector, so the order of events is set, not timed); that one joins when it is let go.

const dataDir = mkdtempSync(join(tmpdir(), 'ijwi-warm-up-'));
after(() => rm(dataDir, { recursive: true, force: true }));

/** A key of a new account (its free trial pays for a short call), made in the service's database. */
async function newKey(): Promise<string> {
  const db = await openDatabase({ kind: 'sqlite', file: join(dataDir, 'ijwi.sqlite') });
  try {
    const accounts = new AccountService({ accounts: db.accounts, keys: db.keys });
    const account = await accounts.createAccount({ name: 'Warm-up clinic' });
    assert.ok(account.ok);
    const key = await accounts.createKey(account.account.id);
    assert.ok(key.ok);
    return key.key;
  } finally {
    await db.close();
  }
}

/** Resolves once `output()` matches `pattern`; fails after `timeoutMs`. */
async function printed(output: () => string, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(output())) {
    if (Date.now() > deadline) throw new Error(`${pattern} not printed in ${timeoutMs} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the warm-up of a service starting', () => {
  it('answers speech once one engine worker is warm, before another has warmed; that one joins later', async () => {
    const key = await newKey();
    const service = startService({ DATA_DIR: dataDir, POOL_SIZE: '2' }, ['--inspect-brk=127.0.0.1:0']);
    try {
      const workers = await holdWorkers(await inspectorUrl(service), POOL_WORKER_NAME, 1);
      try {
        const base = await service.ready(60_000);
        assert.equal(workers.held.length, 1, 'the second engine worker is held before its warm-up');
        const health = (await (await fetch(`${base}/api/v1/health.php`)).json()) as {
          status: string;
          checks: Record<string, string>;
        };
        assert.deepEqual(
          { status: health.status, engine: health.checks.engine },
          { status: 'ready', engine: 'ok' },
        );

        const response = await fetch(`${base}/api/v1/tts-stream.php`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: 'Muraho neza.', language: 'rw', format: 'mulaw_8k' }),
        });
        const audio = Buffer.from(await response.arrayBuffer());
        assert.equal(response.status, 200, audio.toString());
        assert.ok(audio.byteLength > 1600, `${audio.byteLength} bytes of audio`);
        assert.doesNotMatch(service.output(), /every engine worker warmed/);

        workers.release();
        await printed(service.output, /"workers":2,"msg":"every engine worker warmed"/);
      } finally {
        await workers.close();
      }
      assert.equal(await service.stop(), 0, service.output());
    } finally {
      await service.stop();
    }
  });
});
