import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { useAssignedVoices } from '../../src/speech/voices/voices.ts';
import { buildTtsTestApp, startTestPool, type TtsFixture, waitUntil } from '../helpers/tts-fixture.ts';
import { assignTinyPack } from '../helpers/voice-packs.ts';

// Callers who hang up after a second of audio, while the service's request thread is busy with
// other calls (a receptionist's lines at their peak): each of them heard audio, so each is charged
// once. Their clause comes from the clause cache, so the first audio ready is a whole clause of
// 24 kHz PCM (more than a client takes in one read): a caller who hangs up with some of it unread
// resets the connection, and that reset must not be read as "gone before the first audio byte".
// The callers run on a thread of their own, so that they read and hang up while the service's
// thread is held, as a caller in another process does.

const CALLERS = 24;
/** One clause (no comma, no full stop inside), about three seconds of English. */
const INPUT = 'Muraho neza murakaza neza kuri Ijwi mutegereze gato turabafasha vuba cyane';
const TOKENS = 1;
const TOP_UP = 1000;
/** A second of `pcm16_24k`. */
const HANG_UP_AFTER_BYTES = 48_000;

/**
 * The callers' thread: each key's stream, two at a time (the neural voice's call limit), read
 * until a second of audio, then the socket destroyed.
 */
const CALLERS_SCRIPT = `
const { workerData, parentPort } = require('node:worker_threads');
const { request } = require('node:http');
const { port, keys, input, hangUpAfter } = workerData;
const call = (key) => new Promise((resolve) => {
  const body = JSON.stringify({ input, language: 'rw', speaker_id: 1, format: 'pcm16_24k' });
  const req = request({ host: '127.0.0.1', port, path: '/api/v1/tts-stream.php', method: 'POST',
    headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' } });
  req.on('error', () => resolve({ requestId: undefined, audioBytes: 0 }));
  req.on('response', (response) => {
    const requestId = response.headers['x-request-id'];
    let audioBytes = 0;
    const done = () => resolve({ requestId, status: response.statusCode, audioBytes });
    response.on('data', (chunk) => {
      audioBytes += chunk.byteLength;
      if (hangUpAfter !== null && audioBytes >= hangUpAfter) { response.socket.destroy(); done(); }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('aborted', done);
  });
  req.end(body);
});
const seen = [];
let next = 0;
const line = async () => { while (next < keys.length) { const i = next++; seen[i] = await call(keys[i]); } };
Promise.all([line(), line()]).then(() => parentPort.postMessage(seen));
`;

interface Seen {
  readonly requestId: string | undefined;
  readonly status: number | undefined;
  readonly audioBytes: number;
}

/** Runs the callers on their own thread, hanging up after `hangUpAfter` bytes (or never); resolves what each saw. */
function callersOnAThread(
  port: number,
  keys: readonly string[],
  hangUpAfter: number | null,
): Promise<Seen[]> {
  const worker = new Worker(CALLERS_SCRIPT, {
    eval: true,
    workerData: { port, keys, input: INPUT, hangUpAfter },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (seen: Seen[]) => {
      resolve(seen);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** Holds the thread for `ms` every millisecond, as other calls' work would, until stopped. */
function busyThread(ms: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  }, 1);
  return () => clearInterval(timer);
}

describe('POST /api/v1/tts-stream.php when callers hang up after a second, the service busy', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let port: number;
  let packs: string | undefined;

  before(async () => {
    packs = await assignTinyPack('rw', 1);
    pool = await startTestPool(2);
    fixture = await buildTtsTestApp({ pool: () => pool, clauseCache: new ClauseCache(8 * 1024 * 1024) });
    await fixture.app.listen({ port: 0, host: '127.0.0.1' });
    port = (fixture.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await fixture?.close();
    await pool?.close();
    useAssignedVoices([]);
    if (packs !== undefined) rmSync(packs, { recursive: true, force: true });
  });

  it('charges every caller who heard audio, once', async () => {
    const callers = [];
    for (let i = 0; i < CALLERS; i++) callers.push(await fixture.newPayingAccount({ topUp: TOP_UP }));
    // Each account hears the clause whole once, so its hang-up's first audio is the cached clause.
    const keys = callers.map((c) => c.key);
    for (const whole of await callersOnAThread(port, keys, null)) assert.equal(whole.status, 200);
    const stop = busyThread(5);
    let seen: Seen[];
    try {
      seen = await callersOnAThread(port, keys, HANG_UP_AFTER_BYTES);
    } finally {
      stop();
    }
    await waitUntil(() => pool.running === 0 && pool.queued === 0, 'every stream has stopped');
    await sleep(200);

    const problems: string[] = [];
    for (const [i, { accountId }] of callers.entries()) {
      const caller = seen[i] as Seen;
      assert.equal(caller.status, 200, JSON.stringify(caller));
      assert.ok(caller.audioBytes >= HANG_UP_AFTER_BYTES, JSON.stringify(caller));
      const entries = (await fixture.ledgerOf(accountId)).filter((e) => e.requestId === caller.requestId);
      const net = -entries.reduce((sum, e) => sum + e.tokens, 0);
      if (net !== TOKENS)
        problems.push(
          `caller ${i} heard ${caller.audioBytes} bytes: ${entries.map((e) => e.kind).join(', ')}`,
        );
    }
    assert.deepEqual(problems, []);
  });
});
