import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { LiveClient } from '../helpers/live-client.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  waitUntil,
} from '../helpers/tts-fixture.ts';

// A client that stops reading cannot make the server hold its audio without bound: once the
// socket's buffer passes the high-water mark, audio waits (and with it synthesis, a clause at a
// time), and a client that still reads nothing is disconnected. Pacing is switched off here so the
// server produces as fast as it can, the worst case for its buffers. A client that leaves, by
// closing or by not reading, is its own doing: the service logs no error for it.

describe('GET /api/v1/tts-live with a client that does not read', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  const logged: { level: number; msg: string }[] = [];
  /** The log lines at error level or above since `from`. */
  const errorsSince = (from: number) => logged.slice(from).filter((line) => line.level >= 50);

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({
      pool: () => pool,
      liveTimings: { leadMs: 3_600_000, highWaterBytes: 64 * 1024, stallMs: 1000 },
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n')) if (line.trim()) logged.push(JSON.parse(line));
          done();
        },
      }),
    });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  it('holds at most the high-water mark for it, then disconnects it', async () => {
    const logFrom = logged.length;
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
    assert.deepEqual(errorsSince(logFrom), [], 'a client that stopped reading is no server error');
  });

  it('logs no error for a client that closes while its audio waits for it', async () => {
    const logFrom = logged.length;
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${account.key}` });
    const text = 'Our clinic is open from eight in the morning until six in the evening. '.repeat(40);
    client.send({ type: 'text', context_id: 'gone', text, language: 'fr', format: 'pcm16_24k' });
    client.send({ type: 'end', context_id: 'gone' });
    await waitUntil(() => client.audio('gone').byteLength > 0, 'the first audio');
    // The client stops reading, so the writer waits at the 64 KB mark; then it closes. Its close
    // frame reaches the service at once, the connection's end only once it reads again.
    client.socket.pause();
    await sleep(300);
    client.socket.close(1000);
    await waitUntil(() => pool.running === 0 && pool.queued === 0, 'synthesis stopped');
    await sleep(300);
    client.socket.terminate();
    await client.closed;
    assert.deepEqual(errorsSince(logFrom), []);
  });
});
