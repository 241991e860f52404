import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadTurns, longText } from '../../bench/turns.ts';
import { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import {
  type MemorySample,
  memorySample,
  STALLED_BOUND_MB,
  showMemory,
  stallClients,
  streamClient,
} from '../helpers/stalled-readers.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  recordJobs,
  rotate,
  startTestPool,
  type TtsFixture,
  waitUntil,
} from '../helpers/tts-fixture.ts';

// api-v1.md, "A listener who stops reading": a stream whose client stops reading holds at most
// 512 KB of audio beyond the socket's own buffers, and releases it when its client goes. Checked
// as a hostile client would: many streams of 4,000 characters at 24 kHz (minutes of audio, far
// more than the kernel's socket buffers take) whose clients read the head and nothing more. The
// clause cache is on and already holds every clause, the worst case: a cached clause reaches the
// stream at once, and so does a whole stream of them, with no turn of the event loop between its
// parts. The judge is this process's memory (the app and its pool run here) against itself once
// the same stream has been read whole: the bytes of its ArrayBuffers, where audio lives, held to
// the contract's bound; its resident memory, which the allocator and the garbage collector move
// by megabytes on their own, held to a looser one that a stream held in memory (11 MB) still
// breaks.

const STALLED = 24;
const PATH = '/api/v1/tts-stream.php';

const turns = await loadTurns();
const input = longText(turns, 'en', 4_000);
const request = { input, language: 'en', format: 'pcm16_24k' };

const clauseOf = (job: SynthesisJob) => JSON.stringify(job.input);
const show = showMemory;

describe(`${PATH} to clients that stop reading`, () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let jobs: SynthesisJob[];
  let key: () => string;
  /** The service's side of each connection, while it is open. */
  const served = new Set<Socket>();
  const written = () => [...served].reduce((sum, socket) => sum + socket.bytesWritten, 0);
  /** The audio of the stream, as a reader that keeps up got it while the pool spoke it. */
  let spoken: Buffer;

  before(async () => {
    pool = await startTestPool(2);
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({ pool: () => pool, clauseCache: new ClauseCache(32 * 1024 * 1024) });
    base = await listenOnLoopback(fixture.app);
    fixture.app.server.on('connection', (socket: Socket) => {
      served.add(socket);
      socket.once('close', () => served.delete(socket));
    });
    // Each key may make 30 requests a minute.
    key = rotate((await fixture.newPayingAccount({ keys: 4, topUp: 1_000_000 })).keys);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  it('gives a reader that keeps up every clause spoken once, and a slow reader the same bytes', async () => {
    const whole = await streamClient(base, PATH, key(), request, { kind: 'whole' });
    await whole.closed;
    spoken = whole.body();
    assert.ok(spoken.byteLength > 4 * 1024 * 1024, `${spoken.byteLength} bytes of audio`);
    const inputs = jobs.map(clauseOf);
    assert.equal(new Set(inputs).size, inputs.length, `a clause was spoken twice: ${inputs.join(' | ')}`);

    // A reader that stops now and then (its socket fills, the writer waits for its drains) is
    // given the stream from the cache: the same bytes, and no clause asked of the pool again.
    const spokenJobs = jobs.length;
    const slow = await streamClient(base, PATH, key(), request, { kind: 'slow', bytes: 512 * 1024, ms: 100 });
    await slow.closed;
    assert.equal(slow.body().byteLength, spoken.byteLength);
    assert.ok(slow.body().equals(spoken), 'the slow reader got other bytes');
    assert.equal(jobs.length, spokenJobs, 'the slow reader had clauses spoken again');
  });

  /**
   * `STALLED` clients send the stream's request and stop reading; resolves the memory they take
   * (`MemorySample` against `reference`) once nothing more goes out to them, and hangs them up.
   */
  async function stalledRound(reference: MemorySample): Promise<MemorySample> {
    const { clients, held } = await stallClients({
      base,
      path: PATH,
      body: request,
      key,
      count: STALLED,
      written,
      idle: () => pool.running === 0 && pool.queued === 0,
      reference,
    });
    try {
      // Every stream is still there, waiting: none was ended to keep within the bound.
      assert.equal(served.size, STALLED);
      const audio = [...served].map((socket) => socket.bytesWritten);
      assert.ok(
        audio.every((bytes) => bytes < spoken.byteLength),
        `a stalled stream was written whole: ${audio.join(', ')}`,
      );
      return held;
    } finally {
      for (const client of clients) client.socket.destroy();
      await Promise.all(clients.map((client) => client.closed));
      await waitUntil(() => served.size === 0, 'the service closed its side');
    }
  }

  it(`holds under ${STALLED_BOUND_MB * 1024} KB of audio a stalled stream, and gives it back when its client goes`, async () => {
    assert.ok(spoken, 'the stream was read whole first');
    await waitUntil(() => served.size === 0, 'the readers before have gone');
    const reference = await memorySample();
    await stalledRound(reference);
    // The process keeps a little after its first burst of connections (1.5 MB for 24 streams,
    // the same after every later burst): a second round's leftovers show what a stream keeps.
    const afterFirst = await memorySample();
    await stalledRound(reference);
    const afterSecond = await memorySample();
    assert.ok(
      afterSecond.buffersMb - afterFirst.buffersMb < STALLED_BOUND_MB,
      `after they hung up: ${show(reference)} -> ${show(afterFirst)} -> ${show(afterSecond)}`,
    );
  });
});
