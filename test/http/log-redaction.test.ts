import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { redactedUrl } from '../../src/http/log-redaction.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';

// Secrets some clients must put in a URL (a Cartesia socket's api_key, the studio socket's csrf)
// never reach the request log at info level: the log keeps the parameter's name, not its value.

describe('the request log', () => {
  it('logs requests at info without the value of a secret query parameter', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildTestApp({ logger: { level: 'info', stream } as unknown as { level: string } });
    const secret = 'ijwi_sk_0123456789abcdefSECRET';
    await app.inject({
      method: 'GET',
      url: `/api/v1/voices.php?format=json&api_key=${secret}&Csrf=${secret}`,
    });
    await app.close();
    const log = lines.join('');
    assert.match(log, /incoming request/, 'requests are logged at info');
    assert.match(log, /format=json&api_key=\[redacted\]&Csrf=\[redacted\]/);
    assert.ok(!log.includes(secret), 'no secret in the log');
  });

  it('keeps other parameters and a URL without a query as they are', () => {
    assert.equal(redactedUrl('/api/v1/voices.php'), '/api/v1/voices.php');
    assert.equal(
      redactedUrl('/cartesia/tts/websocket?cartesia_version=2025-04-16&api%5Fkey=x&xi_api_key=y&model=m'),
      '/cartesia/tts/websocket?cartesia_version=2025-04-16&api%5Fkey=[redacted]&xi_api_key=[redacted]&model=m',
    );
    assert.equal(redactedUrl('/x?%E0%A4%A=1&token'), '/x?%E0%A4%A=1&token=[redacted]');
    assert.equal(
      redactedUrl('/play/Abcdefghijklmnopqrstuv.1795878000.k948108425969.oIr4Mauojq-VEgyRqUD_A.wav?x=1'),
      '/play/Abcdefghijklmnopqrstuv.1795878000.k948108425969.[redacted].wav?x=1',
    );
    assert.equal(redactedUrl('/play/a.b'), '/play/a.b');
  });
});
