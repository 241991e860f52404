import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { buildTtsTestApp, listenOnLoopback, startTestPool, type TtsFixture } from '../helpers/tts-fixture.ts';

// A client that stops reading cannot make the server hold its audio without bound: once the
// socket's buffer passes the high-water mark, audio waits (and with it synthesis, a clause at a
// time), and a client that still reads nothing is disconnected. Pacing is switched off here so the
// server produces as fast as it can, the worst case for its buffers.

describe('GET /api/v1/tts-live with a client that does not read', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({
      pool: () => pool,
      liveTimings: { leadMs: 3_600_000, highWaterBytes: 64 * 1024, stallMs: 1000 },
    });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  it('holds at most the high-water mark for it, then disconnects it', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
    const sentence =
      'Our clinic is open from eight in the morning until six in the evening, every day of the week. ';
    const text = sentence.repeat(Math.floor(3900 / sentence.length));
    client.socket.pause();
    client.send({ type: 'text', context_id: 'flood', text, language: 'fr', format: 'pcm16_24k' });
    client.send({ type: 'end', context_id: 'flood' });
    await sleep(6000);
    client.socket.resume();
    const closed = await client.closed;
    assert.equal(closed.code, 1006, 'the server dropped the connection');
    const received = client.audio('flood').byteLength;
    // About 4 minutes of 24 kHz audio is 11 MB; the server stopped long before producing it all.
    assert.ok(received < 6_000_000, `received ${received} bytes`);
    assert.equal(client.of('flood', 'done').length, 0);
  });
});
