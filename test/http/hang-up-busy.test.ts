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

// Callers who hang up once audio has come, while the service's request thread is busy with other
// calls (a receptionist's lines at their peak): each of them heard audio, so each is charged once.
// Their voice is a neural pack's, whose first audio is a whole clause of 24 kHz PCM (more than a
// client takes in one read); a caller who hangs up with audio unread resets the connection, and
// that reset must not be read as "gone before the first audio byte". The callers run on a thread
// of their own, so that they read and hang up while the service's thread is held, as a caller in
// another process does. Both ways a caller listens: an HTTP stream (hanging up after a second of
// audio) and a live WebSocket (dropping the connection at its first audio message).

const CALLERS = 24;
/** One clause (no comma, no full stop inside) in the neural voice, Mugisha (`rw` speaker 1). */
const SPEECH = {
  input: 'Muraho neza murakaza neza kuri Ijwi mutegereze gato turabafasha vuba cyane',
  language: 'rw',
  speaker_id: 1,
  format: 'pcm16_24k',
};
const TOKENS = 1;
const TOP_UP = 1000;
/** A second of `pcm16_24k`. */
const SECOND_BYTES = 48_000;

/**
 * The callers' thread: each key's call, two at a time (the neural voice's call limit); `hangUp`
 * says whether each hangs up (a destroyed socket) once audio has come, or listens to the end.
 * Posts what each saw: its request id, status and audio bytes.
 */
const CALLERS_SCRIPT = `
const { workerData, parentPort } = require('node:worker_threads');
const { request } = require('node:http');
const WebSocket = require('ws');
const { port, keys, speech, way, hangUp, secondBytes } = workerData;
const stream = (key) => new Promise((resolve) => {
  const req = request({ host: '127.0.0.1', port, path: '/api/v1/tts-stream.php', method: 'POST',
    headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json' } });
  req.on('error', () => resolve({ audioBytes: 0 }));
  req.on('response', (response) => {
    let audioBytes = 0;
    const done = () => resolve({ requestId: response.headers['x-request-id'], status: response.statusCode, audioBytes });
    response.on('data', (chunk) => {
      audioBytes += chunk.byteLength;
      if (hangUp && audioBytes >= secondBytes) { response.socket.destroy(); done(); }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('aborted', done);
  });
  req.end(JSON.stringify(speech));
});
const live = (key) => new Promise((resolve) => {
  const ws = new WebSocket('ws://127.0.0.1:' + port + '/api/v1/tts-live', { headers: { authorization: 'Bearer ' + key } });
  let requestId; let status; let audioBytes = 0;
  ws.on('upgrade', (response) => { requestId = response.headers['x-request-id']; status = response.statusCode; });
  ws.on('open', () => {
    const { input, ...settings } = speech;
    ws.send(JSON.stringify({ type: 'text', context_id: 'c1', text: input, ...settings }));
    ws.send(JSON.stringify({ type: 'end', context_id: 'c1' }));
  });
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.type === 'audio') {
      audioBytes += Buffer.from(message.audio, 'base64').byteLength;
      if (hangUp) ws.terminate();
    }
    if (message.type === 'done') ws.close();
  });
  ws.on('error', () => {});
  ws.on('close', () => resolve({ requestId, status, audioBytes }));
});
const call = way === 'live' ? live : stream;
const seen = [];
let next = 0;
const line = async () => { while (next < keys.length) { const i = next++; seen[i] = await call(keys[i]); } };
Promise.all([line(), line()]).then(() => parentPort.postMessage(seen));
`;

interface Seen {
  readonly requestId?: string;
  readonly status?: number;
  readonly audioBytes: number;
}

type Way = 'stream' | 'live';

/** Runs the callers of `keys` on their own thread; resolves what each saw. */
function callersOnAThread(port: number, keys: readonly string[], way: Way, hangUp: boolean): Promise<Seen[]> {
  const worker = new Worker(CALLERS_SCRIPT, {
    eval: true,
    workerData: { port, keys, speech: SPEECH, way, hangUp, secondBytes: SECOND_BYTES },
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

describe('callers who hang up once audio has come, the service busy', () => {
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

  const cases: readonly { way: Way; title: string; heard: number }[] = [
    { way: 'stream', title: 'POST /api/v1/tts-stream.php, hanging up after a second', heard: SECOND_BYTES },
    { way: 'live', title: 'GET /api/v1/tts-live, dropping the connection at the first audio', heard: 1 },
  ];
  for (const { way, title, heard } of cases)
    it(`${title}: every caller who heard audio is charged once`, async () => {
      const callers = [];
      for (let i = 0; i < CALLERS; i++) callers.push(await fixture.newPayingAccount({ topUp: TOP_UP }));
      const keys = callers.map((c) => c.key);
      // Each account hears the clause whole once (a stream: a live context plays at the listener's
      // pace): its hang-up's first audio is then ready at once, from the clause cache.
      const whole = await callersOnAThread(port, keys, 'stream', false);
      for (const call of whole) assert.ok(call.audioBytes > SECOND_BYTES, JSON.stringify(call));
      const stop = busyThread(5);
      let seen: Seen[];
      try {
        seen = await callersOnAThread(port, keys, way, true);
      } finally {
        stop();
      }
      await waitUntil(() => pool.running === 0 && pool.queued === 0, 'every call has stopped');
      await sleep(300);

      const problems: string[] = [];
      for (const [i, { accountId }] of callers.entries()) {
        const caller = seen[i] as Seen;
        assert.ok(caller.status === (way === 'live' ? 101 : 200), JSON.stringify(caller));
        assert.ok(caller.audioBytes >= heard, JSON.stringify(caller));
        // The account's ledger past its top-up and trial: the whole call, then the hang-up.
        const ledger = (await fixture.ledgerOf(accountId)).filter(
          (e) => e.kind !== 'top_up' && !(e.requestId ?? '').startsWith('req_trial_'),
        );
        const net = -ledger.reduce((sum, e) => sum + e.tokens, 0);
        if (net !== 2 * TOKENS)
          problems.push(
            `caller ${i} heard ${caller.audioBytes} bytes: ${ledger.map((e) => e.kind).join(', ')}`,
          );
      }
      assert.deepEqual(problems, []);
    });
});
