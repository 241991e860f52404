import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withKey, withTtsApp } from '../helpers/tts-fixture.ts';

// A stream is billed before its audio exists, on the conservative bound; once it has ended, its
// ledger entry says how long the audio really was.

describe('the ledger entry of a stream', () => {
  const suite = withTtsApp();

  it('records the audio’s real duration once the stream has ended, not the estimate', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 1000 });
    const input = 'Good morning, thank you for calling the clinic.';
    const response = await suite.fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(account.key),
      payload: { input, language: 'en', format: 'pcm16_8k' },
    });
    assert.equal(response.statusCode, 200);
    const heard = response.rawPayload.byteLength / 16_000;
    const [entry] = await suite.fixture.ledgerOf(account.accountId);
    assert.equal(entry?.kind, 'charge');
    assert.ok(
      Math.abs((entry?.seconds ?? 0) - heard) < 0.01,
      `${entry?.seconds} s recorded, ${heard} s heard`,
    );
    assert.ok(heard < input.length * 1.0, 'well under the bound the charge was decided on');
  });
});
