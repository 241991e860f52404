import assert from 'node:assert/strict';
import { rename, rm, writeFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { expectError, withKey, withTtsApp } from '../helpers/tts-fixture.ts';

// The generated files' folder unusable (a full or read-only disk, a folder replaced): the file
// endpoint answers 503 not_ready with Retry-After, as for S3, charges nothing, and serves again
// once the folder is back.

describe('POST /api/v1/tts.php while the file store cannot take files', () => {
  const suite = withTtsApp();

  it('is 503 not_ready with Retry-After, uncharged, and served again once the store is back', async () => {
    const { fixture } = suite;
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const ask = () =>
      fixture.app.inject({
        method: 'POST',
        url: '/api/v1/tts.php',
        headers: withKey(account.key),
        payload: { input: 'Good morning, thank you for calling.', language: 'en' },
      });
    const folder = fixture.filesDir;
    await rename(folder, `${folder}.away`);
    await writeFile(folder, '');
    try {
      const refused = await ask();
      const error = expectError(refused, 503, 'not_ready');
      assert.match(error.message, /file storage/);
      assert.match(String(refused.headers['retry-after']), /^\d+$/);
      assert.deepEqual(await fixture.balanceOf(account.accountId), { balance: 1000, freeUsesRemaining: 0 });
    } finally {
      await rm(folder);
      await rename(`${folder}.away`, folder);
    }
    const served = await ask();
    assert.equal(served.statusCode, 200, served.body);
  });
});
