import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EnginePool } from '../../../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../../../helpers/audio-analysis.ts';
import { LiveClient, type LiveMessage } from '../../../helpers/live-client.ts';
import { loadTestClient, missingTestClient } from '../../../helpers/test-clients.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
} from '../../../helpers/tts-fixture.ts';

// ElevenLabs' text-to-speech WebSockets (`multi-stream-input`, `stream-input`): driven by LiveKit
// Agents' ElevenLabs plugin as a builder configures it, and by a raw client for what the plugin
// does not do (a barge-in, the single-context socket, refusals at the upgrade).

const LIVEKIT_AGENTS = '@livekit/agents';
const LIVEKIT_PLUGIN = '@livekit/agents-plugin-elevenlabs';

interface LiveKitAgents {
  initializeLogger(options: { pretty: boolean; level: string }): void;
}
interface AudioFrame {
  readonly data: Int16Array;
  readonly sampleRate: number;
}
interface SynthesizeStream extends AsyncIterable<{ frame: AudioFrame } | symbol> {
  pushText(text: string): void;
  flush(): void;
  endInput(): void;
  close(): void;
}
interface LiveKitElevenLabs {
  readonly TTS: new (options: {
    apiKey: string;
    baseURL: string;
    voiceId: string;
    encoding: string;
    model: string;
  }) => { stream(): SynthesizeStream; close(): Promise<void> };
}

const samplesOf = (pcm: Buffer) => new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));

/** The audio of a context's frames (or of every frame, for the single-context socket), joined. */
function audioOf(client: LiveClient, contextId?: string): Buffer {
  return Buffer.concat(
    client.messages
      .map((m) => m.message as LiveMessage & { audio?: string; contextId?: string })
      .filter((m) => typeof m.audio === 'string' && (contextId === undefined || m.contextId === contextId))
      .map((m) => Buffer.from(m.audio as string, 'base64')),
  );
}

const isFinal = (contextId?: string) => (m: LiveMessage) =>
  (m as { isFinal?: boolean }).isFinal === true &&
  (contextId === undefined || (m as { contextId?: string }).contextId === contextId);

describe('ElevenLabs-compatible WebSockets', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture?.close();
    await pool?.close();
  });

  const connect = (key: string, path: string) => LiveClient.connect(base, { 'xi-api-key': key }, path);

  it("speaks text streamed in through LiveKit Agents' plugin, billed once for the context", {
    skip: missingTestClient(LIVEKIT_AGENTS) || missingTestClient(LIVEKIT_PLUGIN),
  }, async () => {
    (loadTestClient(LIVEKIT_AGENTS) as LiveKitAgents).initializeLogger({ pretty: false, level: 'warn' });
    const plugin = loadTestClient(LIVEKIT_PLUGIN) as LiveKitElevenLabs;
    const account = await fixture.newPayingAccount({ topUp: 300 });
    const tts = new plugin.TTS({
      apiKey: account.key,
      baseURL: `${base}/elevenlabs/v1`,
      voiceId: 'grace',
      encoding: 'pcm_24000',
      model: 'eleven_flash_v2_5',
    });
    const stream = tts.stream();
    for (const piece of [
      'Good morning, ',
      'thank you for calling ',
      'the clinic. ',
      'How can I help you today?',
    ])
      stream.pushText(piece);
    stream.flush();
    stream.endInput();
    const samples: Int16Array[] = [];
    for await (const event of stream) {
      if (typeof event === 'symbol') break;
      assert.equal(event.frame.sampleRate, 22_050);
      samples.push(event.frame.data);
    }
    await tts.close();
    const all = Int16Array.from(samples.flatMap((part) => Array.from(part)));
    assert.ok(all.length / 24_000 > 1.5, `${all.length / 24_000} s of audio`);
    assert.ok(voicedShare(all, 24_000) > 0.3, 'the audio is speech');
    const charges = (await fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.equal(charges.length, 1, 'one context, one charge');
    assert.equal(charges[0]?.language, 'en');
  });

  it('keeps contexts apart on one socket, and a barge-in stops one while the other speaks on', async () => {
    const { key } = await fixture.newAccount({ topUp: 300 });
    const client = await connect(
      key,
      '/elevenlabs/v1/text-to-speech/keza/multi-stream-input?output_format=pcm_16000',
    );
    const long = 'Murakoze cyane. '.repeat(12);
    client.send({ text: ' ', context_id: 'first', voice_settings: { stability: 0.5 } });
    client.send({ text: long, context_id: 'first', flush: true });
    client.send({ text: ' ', context_id: 'second' });
    client.send({ text: 'Mwaramutse neza. Mugire umunsi mwiza.', context_id: 'second', flush: true });
    await client.next((m) => (m as { contextId?: string }).contextId === 'first' && 'audio' in m);
    client.send({ context_id: 'first', close_context: true });
    client.send({ text: '', context_id: 'second', flush: true });
    await client.next(isFinal('first'));
    await client.next(isFinal('second'));
    const first = audioOf(client, 'first');
    const second = audioOf(client, 'second');
    assert.ok(second.byteLength / 2 / 16_000 > 1, 'the second context spoke all of its text');
    assert.ok(voicedShare(samplesOf(second), 16_000) > 0.3);
    // Twelve sentences take far longer than what was sent before the barge-in.
    assert.ok(
      first.byteLength / 2 / 16_000 < 10,
      `${first.byteLength / 32_000} s of the first after its close`,
    );
    const words = client.messages
      .map((m) => m.message as { contextId?: string; alignment?: { chars: string[] } | null })
      .filter((m) => m.contextId === 'second' && m.alignment)
      .map((m) => m.alignment?.chars.join(''))
      .join('');
    assert.match(words.toLowerCase(), /mwaramutse/);
    client.send({ close_socket: true });
    assert.equal((await client.closed).code, 1000);
  });

  it('speaks one context on stream-input and closes after its audio', async () => {
    const { key } = await fixture.newAccount();
    const client = await connect(
      key,
      '/elevenlabs/v1/text-to-speech/aline/stream-input?output_format=ulaw_8000',
    );
    client.send({ text: ' ' });
    client.send({ text: 'Bonjour, ' });
    client.send({ text: 'merci de votre appel.' });
    client.send({ text: '' });
    await client.next(isFinal());
    assert.equal((await client.closed).code, 1000);
    assert.ok(audioOf(client).byteLength > 8000, 'over a second of 8 kHz mu-law');
    assert.ok(
      client.messages.every((m) => !('contextId' in m.message)),
      'no context ids on the single socket',
    );
  });

  it("refuses at the upgrade, in ElevenLabs' error shape, an unknown voice, a bad key and compressed audio", async () => {
    const { key } = await fixture.newAccount();
    const refused = async (apiKey: string, path: string) => {
      try {
        await connect(apiKey, path);
      } catch (error) {
        const { status, body } = error as { status: number; body: string };
        return { status, detail: (JSON.parse(body) as { detail: { status: string } }).detail.status };
      }
      assert.fail('the upgrade was accepted');
    };
    assert.deepEqual(await refused(key, '/elevenlabs/v1/text-to-speech/nobody/multi-stream-input'), {
      status: 404,
      detail: 'not_found',
    });
    assert.deepEqual(
      await refused(
        'voice_live_0000000000000000000000000000000000000000',
        '/elevenlabs/v1/text-to-speech/keza/stream-input',
      ),
      { status: 401, detail: 'invalid_api_key' },
    );
    assert.deepEqual(
      await refused(key, '/elevenlabs/v1/text-to-speech/keza/multi-stream-input?output_format=mp3_44100_128'),
      { status: 422, detail: 'unsupported_format' },
    );
  });
});
