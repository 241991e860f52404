import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { voicedShare } from '../../../helpers/audio-analysis.ts';
import { LiveClient, type LiveMessage } from '../../../helpers/live-client.ts';
import {
  type LiveKitAudioFrame,
  type LiveKitSynthesizeStream,
  loadLiveKitPlugin,
  missingLiveKit,
} from '../../../helpers/test-clients.ts';
import { withTtsApp } from '../../../helpers/tts-fixture.ts';

// ElevenLabs' text-to-speech WebSockets (`multi-stream-input`, `stream-input`): driven by LiveKit
// Agents' ElevenLabs plugin as a builder configures it, and by a raw client for what the plugin
// does not do (a barge-in, the single-context socket, refusals at the upgrade).

const LIVEKIT_PLUGIN = '@livekit/agents-plugin-elevenlabs';

interface LiveKitElevenLabs {
  readonly TTS: new (options: {
    apiKey: string;
    baseURL: string;
    voiceId: string;
    encoding: string;
    model: string;
  }) => {
    stream(): LiveKitSynthesizeStream;
    synthesize(text: string): AsyncIterable<{ frame: LiveKitAudioFrame }>;
    close(): Promise<void>;
  };
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
  const suite = withTtsApp({ listen: true });

  const connect = (key: string, path: string) => LiveClient.connect(suite.base, { 'xi-api-key': key }, path);

  it("speaks text streamed in through LiveKit Agents' plugin, at its default 22,050 Hz, billed once", {
    skip: missingLiveKit(LIVEKIT_PLUGIN),
  }, async () => {
    const plugin = loadLiveKitPlugin(LIVEKIT_PLUGIN, 'warn') as LiveKitElevenLabs;
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const tts = new plugin.TTS({
      apiKey: account.key,
      baseURL: `${suite.base}/elevenlabs/v1`,
      voiceId: 'grace',
      encoding: 'pcm_22050',
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
    assert.ok(all.length / 22_050 > 1.5, `${all.length / 22_050} s of audio`);
    assert.ok(voicedShare(all, 22_050) > 0.3, 'the audio is speech');
    const charges = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.equal(charges.length, 1, 'one context, one charge');
    assert.equal(charges[0]?.language, 'en');
  });

  it('keeps contexts apart on one socket, and a barge-in stops one while the other speaks on', async () => {
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
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
    const firstFinal = await client.next(isFinal('first'));
    await client.next(isFinal('second'));
    const finalAt = client.messages.findIndex((m) => m.message === firstFinal);
    const later = client.messages
      .slice(finalAt + 1)
      .filter((m) => (m.message as { contextId?: string }).contextId === 'first');
    assert.deepEqual(later, [], 'no frame of a closed context after its isFinal');
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
    const { key } = await suite.fixture.newAccount();
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
    const { key } = await suite.fixture.newAccount();
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

  it('holds 10 contexts at once on one socket, refuses an 11th, and ignores keepalives', async () => {
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
    const client = await connect(
      key,
      '/elevenlabs/v1/text-to-speech/grace/multi-stream-input?output_format=pcm_8000',
    );
    const ids = Array.from({ length: 10 }, (_, i) => `ctx-${i}`);
    for (const id of ids) client.send({ text: ' ', context_id: id });
    client.send({ text: ' ', context_id: 'ctx-10' });
    const refused = await client.next((m) => (m as { contextId?: string }).contextId === 'ctx-10');
    assert.equal((refused as { error?: string }).error, 'invalid_request');
    // Keepalives, with and without a context, end nothing.
    client.send({ text: '' });
    for (const id of ids) client.send({ text: '', context_id: id });
    for (const id of ids)
      client.send({ text: `Number ${id.slice(4)} is ready.`, context_id: id, flush: true });
    for (const id of ids) client.send({ text: '', context_id: id, flush: true });
    for (const id of ids) await client.next(isFinal(id));
    for (const id of ids) assert.ok(audioOf(client, id).byteLength > 4000, `${id} spoke`);
    client.close();
  });

  it('answers hostile frames with an error frame and charges nothing; closes on an oversized one', async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const client = await connect(account.key, '/elevenlabs/v1/text-to-speech/keza/multi-stream-input');
    client.socket.send('{"text": "unterminated');
    client.send({ text: 5, context_id: 'a' });
    client.send({ text: 'Muraho', context_id: '../../etc/passwd' });
    const errors = () =>
      client.messages
        .filter((m) => 'error' in m.message)
        .map((m) => (m.message as unknown as { error: string }).error);
    await client.next(() => errors().length >= 3);
    assert.deepEqual(errors(), ['invalid_json', 'invalid_request', 'invalid_request']);
    client.socket.send('x'.repeat(70 * 1024));
    assert.equal((await client.closed).code, 1009, 'a frame over the message limit closes the socket');
    assert.deepEqual(await suite.fixture.balanceOf(account.accountId), {
      balance: 300,
      freeUsesRemaining: 0,
    });
  });

  it('refuses a context the account cannot pay for, and ends a context idle past inactivity_timeout', async () => {
    const broke = await suite.fixture.newPayingAccount();
    const poor = await connect(broke.key, '/elevenlabs/v1/text-to-speech/keza/multi-stream-input');
    poor.send({ text: ' ', context_id: 'c' });
    const refused = await poor.next((m) => 'error' in m);
    assert.equal((refused as { error?: string }).error, 'insufficient_tokens');
    poor.close();
    assert.deepEqual(
      (await suite.fixture.ledgerOf(broke.accountId)).filter((e) => e.kind === 'charge'),
      [],
    );

    const { key } = await suite.fixture.newAccount();
    const idle = await connect(
      key,
      '/elevenlabs/v1/text-to-speech/keza/multi-stream-input?inactivity_timeout=1',
    );
    idle.send({ text: ' ', context_id: 'quiet' });
    const timedOut = await idle.next((m) => 'error' in m, 5_000);
    assert.equal((timedOut as { error?: string }).error, 'request_timeout');
    idle.close();
    await assert.rejects(
      connect(key, '/elevenlabs/v1/text-to-speech/keza/multi-stream-input?inactivity_timeout=999'),
      (error: { status?: number }) => error.status === 422,
    );
  });

  it("speaks every language through LiveKit's plugin: utterance after utterance, an interruption, and its non-streaming path", {
    skip: missingLiveKit(LIVEKIT_PLUGIN),
  }, async () => {
    const plugin = loadLiveKitPlugin(LIVEKIT_PLUGIN, 'error') as LiveKitElevenLabs;
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
    const lines: [string, string][] = [
      ['keza', 'Muraho, murakaza neza. Mbese nabafasha iki?'],
      ['james', 'Hello, thank you for calling. How can I help?'],
      ['julien', 'Bonjour, merci de votre appel. Comment puis-je vous aider?'],
    ];
    for (const [voiceId, text] of lines) {
      const tts = new plugin.TTS({
        apiKey: key,
        baseURL: `${suite.base}/elevenlabs/v1`,
        voiceId,
        encoding: 'pcm_16000',
        model: 'eleven_flash_v2_5',
      });
      const speak = async (stream: LiveKitSynthesizeStream, stopAfter = Number.POSITIVE_INFINITY) => {
        for (const word of text.split(' ')) stream.pushText(`${word} `);
        stream.flush();
        stream.endInput();
        const samples: number[] = [];
        for await (const event of stream) {
          if (typeof event === 'symbol') break;
          samples.push(...event.frame.data);
          if (samples.length >= stopAfter) break;
        }
        return Int16Array.from(samples);
      };
      // Two utterances one after the other on the plugin's one socket, then one cut short and
      // one more: the interrupted one must not leak into the next.
      for (let i = 0; i < 2; i++) {
        const audio = await speak(tts.stream());
        assert.ok(audio.length / 16_000 > 1, `${voiceId}: ${audio.length / 16_000} s`);
        assert.ok(voicedShare(audio, 16_000) > 0.3, `${voiceId} speaks`);
      }
      const cut = tts.stream();
      await speak(cut, 4_000);
      cut.close();
      const after = await speak(tts.stream());
      assert.ok(after.length / 16_000 > 1, `${voiceId} speaks after an interruption`);
      const whole: number[] = [];
      for await (const event of tts.synthesize(text)) whole.push(...event.frame.data);
      assert.ok(whole.length / 16_000 > 1, `${voiceId}: the non-streaming path`);
      await tts.close();
    }
  });
});
