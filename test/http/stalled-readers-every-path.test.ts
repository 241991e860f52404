import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadTurns, longText } from '../../bench/turns.ts';
import { streamFormatNames } from '../../src/speech/audio/formats.ts';
import { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import {
  type MemorySample,
  memorySample,
  STALLED_BOUND_MB,
  type StreamClient,
  showMemory,
  stallClients,
  streamClient,
} from '../helpers/stalled-readers.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  rotate,
  startTestPool,
  type TtsFixture,
  waitUntil,
} from '../helpers/tts-fixture.ts';

// api-v1.md, "A listener who stops reading", on every path that streams over HTTP: the native
// stream in each of its formats (pcm16_24k, the worst case with the clause cache, has its own
// file: stream-stalled-readers.test.ts), the OpenAI-compatible endpoint in each of its formats
// (the compressed ones through the encoding threads), and the compatible APIs of other providers.
// For each, a client reads the whole stream first (the path's first use is not a stalled
// stream's cost), then `STALLED` clients send the same request and read nothing after the head:
// what they hold in this process (the app and its pool run here) must stay under the contract's
// bound a stream; those that read again get the whole stream, byte for byte (none was cut to
// keep the bound; at 8 or 16 kHz, or in MP3, the kernel's socket buffers take a whole stream of
// 4,000 characters, and the process holds nothing). A second round of stalled clients then hangs
// up: the process keeps no more than the bound after it (the first burst of connections leaves a
// little the process keeps for later ones, 1.5 MB for 24 in stream-stalled-readers). The live
// WebSocket's bound is live-slow-reader's.

const STALLED = 12;
/** Stalled clients of the first round that read again, to the end. */
const READ_AGAIN = 2;

const turns = await loadTurns();
const input = longText(turns, 'en', 4_000);

interface PathCase {
  readonly name: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The header the key goes in (a compatible API's own); Authorization: Bearer when absent. */
  readonly keyHeader?: string;
}

const cases: PathCase[] = [
  ...streamFormatNames
    .filter((format) => format !== 'pcm16_24k')
    .map((format) => ({
      name: `stream ${format}`,
      path: '/api/v1/tts-stream.php',
      body: { input, language: 'en', format },
    })),
  ...['mp3', 'opus', 'flac', 'wav', 'pcm'].map((format) => ({
    name: `OpenAI-compatible ${format}`,
    path: '/v1/audio/speech',
    body: { model: 'tts-1', voice: 'grace', input, response_format: format },
  })),
  ...['mp3_44100_128', 'pcm_24000'].map((format) => ({
    name: `ElevenLabs-compatible ${format}`,
    path: `/elevenlabs/v1/text-to-speech/grace/stream?output_format=${format}`,
    body: { text: input },
    keyHeader: 'xi-api-key',
  })),
  {
    name: 'Cartesia-compatible raw',
    path: '/cartesia/tts/bytes',
    body: {
      model_id: 'sonic-2',
      transcript: input,
      voice: { mode: 'id', id: 'grace' },
      output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
    },
    keyHeader: 'X-API-Key',
  },
  {
    name: 'Deepgram-compatible linear16',
    path: '/deepgram/v1/speak?model=grace&encoding=linear16&sample_rate=24000',
    body: { text: input },
  },
  {
    name: 'jambonz HTTP',
    path: '/jambonz?sampleRate=16000',
    body: { language: 'en-US', voice: 'grace', type: 'text', text: input },
  },
];

const ogg = (bytes: Buffer) => bytes.subarray(0, 4).toString('latin1') === 'OggS';

describe('every HTTP streaming path to clients that stop reading', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let key: () => string;
  /** The service's side of each connection, while it is open. */
  const served = new Set<Socket>();
  const written = () => [...served].reduce((sum, socket) => sum + socket.bytesWritten, 0);

  before(async () => {
    pool = await startTestPool(2);
    fixture = await buildTtsTestApp({ pool: () => pool, clauseCache: new ClauseCache(32 * 1024 * 1024) });
    base = await listenOnLoopback(fixture.app);
    fixture.app.server.on('connection', (socket: Socket) => {
      served.add(socket);
      socket.once('close', () => served.delete(socket));
    });
    // Each key may make 30 requests a minute: enough keys for every case's streams.
    key = rotate((await fixture.newPayingAccount({ keys: 12, topUp: 10_000_000 })).keys);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  /**
   * `STALLED` clients of `path` stop reading after the head (`stallClients`, its memory asserted
   * under the bounds); `end` ends them. Resolves that memory; the clients are unreachable after it,
   * so that what the process keeps of them is the service's.
   */
  async function stallRound(
    { path, body, keyHeader }: PathCase,
    reference: MemorySample,
    end: (clients: readonly StreamClient[]) => Promise<void>,
  ): Promise<MemorySample> {
    const { clients, held } = await stallClients({
      base,
      path,
      body,
      key,
      ...(keyHeader ? { keyHeader } : {}),
      count: STALLED,
      written,
      idle: () => pool.running === 0 && pool.queued === 0,
      reference,
    });
    try {
      await end(clients);
      await waitUntil(() => served.size === 0, 'the service closed its side');
      return held;
    } finally {
      for (const client of clients) client.socket.destroy();
      clients.length = 0;
    }
  }

  for (const pathCase of cases) {
    const { name, path, body, keyHeader } = pathCase;
    it(`${name}: under ${STALLED_BOUND_MB * 1024} KB a stalled stream, whole when read again, given back on hang-up`, async () => {
      const whole = await streamClient(base, path, key(), body, { kind: 'whole' }, keyHeader);
      await whole.closed;
      const audio = whole.body();
      assert.ok(audio.byteLength > 64 * 1024, `${audio.byteLength} bytes of audio read whole`);
      await waitUntil(() => served.size === 0, 'the whole reader has gone');

      await stallRound(pathCase, await memorySample(), async (clients) => {
        // Two read again (the others hang up): what they had not taken was waiting, not dropped.
        const again = clients.slice(0, READ_AGAIN);
        for (const client of clients.slice(READ_AGAIN)) client.socket.destroy();
        for (const client of again) client.resume();
        await Promise.all(clients.map((client) => client.closed));
        for (const client of again) {
          // An Ogg stream's serial number is drawn per stream: its length is what must match.
          const read = client.body();
          assert.ok(
            ogg(audio) ? read.byteLength === audio.byteLength : read.equals(audio),
            `a stalled stream read again was not whole: ${read.byteLength} of ${audio.byteLength} bytes`,
          );
        }
      });

      const reference = await memorySample();
      const held = await stallRound(pathCase, reference, async (clients) => {
        for (const client of clients) client.socket.destroy();
        await Promise.all(clients.map((client) => client.closed));
      });
      const gone = await memorySample();
      assert.ok(
        gone.buffersMb - reference.buffersMb < STALLED_BOUND_MB,
        `after they hung up: ${showMemory(reference)} -> ${showMemory(held)} -> ${showMemory(gone)}`,
      );
    });
  }
});
