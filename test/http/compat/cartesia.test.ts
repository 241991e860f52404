import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { voicedShare } from '../../helpers/audio-analysis.ts';
import { LiveClient, type LiveMessage } from '../../helpers/live-client.ts';
import { loadTestClient, missingTestClient } from '../../helpers/test-clients.ts';
import { withTtsApp } from '../../helpers/tts-fixture.ts';

// Cartesia's text-to-speech: `/tts/bytes` and `/tts/sse` driven by Cartesia's own JS SDK pointed
// at `{base_url}/cartesia` with an Ijwi key; `/tts/websocket` by a plain client speaking its
// protocol (the SDK always dials wss).

const SDK = '@cartesia/cartesia-js';

interface SseEvent {
  readonly type: string;
  readonly data?: string;
  readonly word_timestamps?: { words: string[]; start: number[]; end: number[] };
}
interface CartesiaClient {
  readonly tts: {
    generate(body: Record<string, unknown>): Promise<Response>;
    generateSSE(body: Record<string, unknown>): Promise<AsyncIterable<SseEvent>>;
  };
}
interface CartesiaModule {
  readonly default: new (options: { apiKey: string; baseURL: string; maxRetries: number }) => CartesiaClient;
  readonly APIError: new (...args: never[]) => Error & { status?: number; error?: unknown };
}

const raw = (sampleRate: number, encoding = 'pcm_s16le') => ({
  container: 'raw',
  encoding,
  sample_rate: sampleRate,
});

describe('Cartesia-compatible text-to-speech', () => {
  const suite = withTtsApp({ listen: true });

  const client = (apiKey: string) => {
    const sdk = loadTestClient(SDK) as CartesiaModule;
    return new sdk.default({ apiKey, baseURL: `${suite.base}/cartesia`, maxRetries: 0 });
  };

  it('speaks /tts/bytes through the SDK: 16-bit and float PCM, WAV, billed once each', {
    skip: missingTestClient(SDK),
  }, async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const cartesia = client(account.key);
    const bytes = async (output_format: Record<string, unknown>) =>
      Buffer.from(
        await (
          await cartesia.tts.generate({
            model_id: 'sonic-2',
            transcript: 'Bonjour, merci de votre appel.',
            voice: { mode: 'id', id: 'claire' },
            language: 'fr',
            output_format,
          })
        ).arrayBuffer(),
      );
    const s16 = await bytes(raw(16000));
    const samples = new Int16Array(s16.buffer, s16.byteOffset, s16.byteLength / 2);
    assert.ok(samples.length / 16_000 > 1);
    assert.ok(voicedShare(samples, 16_000) > 0.3);
    const f32 = await bytes(raw(16000, 'pcm_f32le'));
    const floats = new Float32Array(f32.buffer.slice(f32.byteOffset, f32.byteOffset + f32.byteLength));
    assert.equal(floats.length, samples.length, 'the same samples, as floats');
    assert.ok(floats.every((x) => x >= -1 && x <= 1));
    assert.ok(Math.abs((floats[1000] ?? 0) - (samples[1000] ?? 0) / 32768) < 1e-6);
    const wav = await bytes({ container: 'wav', encoding: 'pcm_s16le', sample_rate: 22050 });
    assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
    assert.equal(wav.readUInt32LE(24), 22_050);
    assert.equal(
      (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge').length,
      3,
    );
  });

  it('streams /tts/sse through the SDK, with word timestamps that cover the text', {
    skip: missingTestClient(SDK),
  }, async () => {
    const { key } = await suite.fixture.newAccount();
    const events = await client(key).tts.generateSSE({
      model_id: 'sonic-2',
      transcript: 'Good morning. Your appointment is at nine.',
      voice: { mode: 'id', id: 'james' },
      output_format: raw(24000),
      add_timestamps: true,
    });
    const audio: Buffer[] = [];
    const words: string[] = [];
    const types: string[] = [];
    let lastEnd = 0;
    for await (const event of events) {
      types.push(event.type);
      if (event.type === 'chunk' && event.data) audio.push(Buffer.from(event.data, 'base64'));
      if (event.type === 'timestamps' && event.word_timestamps) {
        words.push(...event.word_timestamps.words);
        lastEnd = Math.max(lastEnd, ...event.word_timestamps.end);
      }
    }
    assert.equal(types[0], 'chunk');
    assert.equal(types.at(-1), 'done');
    const seconds = Buffer.concat(audio).byteLength / 48_000;
    assert.ok(seconds > 1.5, `${seconds} s`);
    assert.ok(words.join(' ').toLowerCase().includes('appointment'), words.join(' '));
    assert.ok(
      lastEnd > seconds * 0.6 && lastEnd <= seconds + 0.01,
      `words end at ${lastEnd} of ${seconds} s`,
    );
  });

  it("refuses in its error body with Ijwi's code through the SDK, charging nothing", {
    skip: missingTestClient(SDK),
  }, async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const sdk = loadTestClient(SDK) as CartesiaModule;
    const refusal = async (apiKey: string, body: Record<string, unknown>) => {
      try {
        await client(apiKey).tts.generate(body);
      } catch (error) {
        assert.ok(error instanceof sdk.APIError, String(error));
        return { status: error.status, code: (error.error as { error_code?: string }).error_code };
      }
      assert.fail('the request was accepted');
    };
    const good = { model_id: 'sonic-2', transcript: 'Muraho', voice: 'keza', output_format: raw(16000) };
    assert.deepEqual(await refusal('not-a-key', good), { status: 401, code: 'invalid_api_key' });
    assert.deepEqual(await refusal(account.key, { ...good, voice: 'nobody' }), {
      status: 404,
      code: 'not_found',
    });
    assert.deepEqual(await refusal(account.key, { ...good, output_format: raw(48000) }), {
      status: 400,
      code: 'unsupported_format',
    });
    assert.deepEqual(await refusal(account.key, { ...good, language: 'en' }), {
      status: 400,
      code: 'unsupported_language',
    });
    assert.deepEqual(await refusal(account.key, { ...good, transcript: '' }), {
      status: 400,
      code: 'input_required',
    });
    assert.deepEqual(await suite.fixture.balanceOf(account.accountId), {
      balance: 300,
      freeUsesRemaining: 0,
    });
  });

  it('speaks contexts over /tts/websocket with continuations, timestamps and cancel', async () => {
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
    const client = await LiveClient.connect(
      suite.base,
      {},
      `/cartesia/tts/websocket?api_key=${key}&cartesia_version=2025-04-16`,
    );
    const request = (context_id: string, transcript: string, more: boolean) => ({
      model_id: 'sonic-2',
      transcript,
      voice: { mode: 'id', id: 'keza' },
      language: 'rw',
      context_id,
      output_format: raw(16000),
      add_timestamps: true,
      continue: more,
    });
    client.send(request('turn', 'Muraho, ', true));
    client.send(request('turn', 'murakaza neza. ', true));
    client.send(request('turn', 'Mbese nabafasha iki?', false));
    client.send(request('long', 'Murakoze cyane. '.repeat(10), false));
    const ofContext = (id: string, type: string) =>
      client.messages
        .map((m) => m.message)
        .filter((m: LiveMessage) => m.context_id === id && m.type === type);
    await client.next((m) => m.context_id === 'long' && m.type === 'chunk');
    client.send({ context_id: 'long', cancel: true });
    await client.next((m) => m.context_id === 'turn' && m.type === 'done');
    await client.next((m) => m.context_id === 'long' && m.type === 'done');
    const turn = Buffer.concat(
      ofContext('turn', 'chunk').map((m) => Buffer.from(m.data as string, 'base64')),
    );
    assert.ok(turn.byteLength / 32_000 > 1.5, 'the three continuations spoke as one');
    const words = ofContext('turn', 'timestamps').flatMap(
      (m) => (m.word_timestamps as { words: string[] }).words,
    );
    assert.match(words.join(' ').toLowerCase(), /muraho.*nabafasha/);
    const long = Buffer.concat(
      ofContext('long', 'chunk').map((m) => Buffer.from(m.data as string, 'base64')),
    );
    assert.ok(long.byteLength / 32_000 < 6, 'a cancelled context stops');
    client.close();
  });
});
