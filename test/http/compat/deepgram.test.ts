import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { voicedShare } from '../../helpers/audio-analysis.ts';
import { LiveClient } from '../../helpers/live-client.ts';
import { loadTestClient, missingTestClient } from '../../helpers/test-clients.ts';
import { withTtsApp } from '../../helpers/tts-fixture.ts';

// Deepgram's `/v1/speak`, driven by Deepgram's own JS SDK pointed at `{base_url}/deepgram` with an
// Ijwi key, and by raw clients for the WebSocket's details (binary audio, Flushed, Cleared).

const SDK = '@deepgram/sdk';
const TEXT = 'Muraho, murakaza neza kuri kliniki yacu.';

interface BinaryResponse {
  arrayBuffer(): Promise<ArrayBuffer>;
}
interface SpeakSocket {
  on(event: 'message', handler: (message: unknown) => void): void;
  on(event: 'close', handler: () => void): void;
  connect(): SpeakSocket;
  waitForOpen(): Promise<unknown>;
  sendText(message: { type: 'Speak'; text: string }): void;
  sendFlush(message: { type: 'Flush' }): void;
  sendClose(message: { type: 'Close' }): void;
  close(): void;
}
interface DeepgramClient {
  readonly speak: {
    readonly v1: {
      readonly audio: { generate(request: Record<string, unknown>): Promise<BinaryResponse> };
      connect(args: Record<string, unknown>): Promise<SpeakSocket>;
    };
  };
}
interface DeepgramModule {
  readonly DeepgramClient: new (options: {
    apiKey: string;
    environment: { base: string; production: string; agent: string; agentRest: string };
    reconnect?: boolean;
  }) => DeepgramClient;
}

const samplesOf = (pcm: Buffer) => new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.byteLength / 2));

describe('Deepgram-compatible speak', () => {
  const suite = withTtsApp({ listen: true });

  const sdkClient = (apiKey: string) => {
    const sdk = loadTestClient(SDK) as DeepgramModule;
    const ws = suite.base.replace(/^http/, 'ws');
    return new sdk.DeepgramClient({
      apiKey,
      environment: {
        base: `${suite.base}/deepgram`,
        production: `${ws}/deepgram`,
        agent: ws,
        agentRest: suite.base,
      },
      reconnect: false,
    });
  };

  it('speaks over HTTP through the SDK: bare PCM, WAV, mu-law and MP3, billed once each', {
    skip: missingTestClient(SDK),
  }, async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const client = sdkClient(account.key);
    const generate = async (query: Record<string, unknown>) =>
      Buffer.from(
        await (await client.speak.v1.audio.generate({ text: TEXT, model: 'keza', ...query })).arrayBuffer(),
      );
    const pcm = await generate({ encoding: 'linear16', sample_rate: 16000, container: 'none' });
    assert.equal(pcm.byteLength % 2, 0);
    assert.ok(pcm.byteLength / 32_000 > 1, `${pcm.byteLength / 32_000} s`);
    assert.ok(voicedShare(samplesOf(pcm), 16_000) > 0.3);
    // A WAV streamed as it is made: its sizes say "to the end", its rate linear16's default.
    const wav = await generate({ encoding: 'linear16' });
    assert.equal(wav.subarray(0, 4).toString(), 'RIFF');
    assert.equal(wav.subarray(8, 12).toString(), 'WAVE');
    assert.equal(wav.readUInt32LE(24), 24_000);
    assert.ok((wav.byteLength - 44) / 48_000 > 1);
    const mulaw = await generate({ encoding: 'mulaw', container: 'none' });
    assert.ok(mulaw.byteLength / 8000 > 1);
    const mp3 = await generate({});
    assert.ok(mp3[0] === 0xff || mp3.subarray(0, 3).toString() === 'ID3', 'MP3 by default');
    const charges = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.equal(charges.length, 4);
  });

  it("refuses in its error body with Ijwi's code, charging nothing", async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const post = (query: string, key = account.key, body: unknown = { text: TEXT }) =>
      fetch(`${suite.base}/deepgram/v1/speak?${query}`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const cases: [string, string | undefined, unknown, number, string][] = [
      ['model=nobody', undefined, undefined, 404, 'not_found'],
      ['model=keza&encoding=aac', undefined, undefined, 400, 'unsupported_format'],
      ['model=keza&encoding=linear16&sample_rate=48000', undefined, undefined, 400, 'unsupported_format'],
      ['model=keza&encoding=mulaw&sample_rate=16000', undefined, undefined, 400, 'unsupported_format'],
      ['model=keza', 'not-a-key', undefined, 401, 'invalid_api_key'],
      ['model=keza', undefined, { text: '' }, 400, 'input_required'],
    ];
    for (const [query, key, body, status, code] of cases) {
      const response = await post(query, key, body);
      assert.equal(response.status, status, query);
      const error = (await response.json()) as { err_code: string; err_msg: string; request_id: string };
      assert.equal(error.err_code, code);
      assert.ok(error.err_msg.length > 0 && error.request_id.startsWith('req_'));
    }
    assert.deepEqual(await suite.fixture.balanceOf(account.accountId), {
      balance: 300,
      freeUsesRemaining: 0,
    });
  });

  it("streams over the SDK's WebSocket: Metadata, binary audio, Flushed after each flush", {
    skip: missingTestClient(SDK),
  }, async () => {
    const account = await suite.fixture.newPayingAccount({ topUp: 300 });
    const socket = await sdkClient(account.key).speak.v1.connect({
      model: 'grace',
      encoding: 'linear16',
      sample_rate: 16000,
      Authorization: `Token ${account.key}`,
    });
    const messages: unknown[] = [];
    const audio: Buffer[] = [];
    const conversions: Promise<void>[] = [];
    let flushed = 0;
    const twoFlushes = new Promise<void>((resolve) => {
      socket.on('message', (message) => {
        // The SDK hands binary frames over as Blobs (which have a `type` of their own).
        if (message instanceof Blob) {
          conversions.push(message.arrayBuffer().then((bytes) => void audio.push(Buffer.from(bytes))));
          return;
        }
        messages.push(message);
        if ((message as { type?: string }).type === 'Flushed' && ++flushed === 2) resolve();
      });
    });
    socket.connect();
    await socket.waitForOpen();
    socket.sendText({ type: 'Speak', text: 'Good morning, thank you for calling.' });
    socket.sendFlush({ type: 'Flush' });
    socket.sendText({ type: 'Speak', text: 'How can I help you today?' });
    socket.sendFlush({ type: 'Flush' });
    await twoFlushes;
    await Promise.all(conversions);
    socket.sendClose({ type: 'Close' });
    const types = messages.map((m) => (m as { type: string }).type);
    assert.equal(types[0], 'Metadata');
    assert.deepEqual(
      messages
        .filter((m) => (m as { type: string }).type === 'Flushed')
        .map((m) => (m as { sequence_id: number }).sequence_id),
      [1, 2],
    );
    const pcm = Buffer.concat(audio);
    assert.ok(pcm.byteLength / 32_000 > 2, `${pcm.byteLength / 32_000} s of audio`);
    assert.ok(voicedShare(samplesOf(pcm), 16_000) > 0.3);
    const charges = (await suite.fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.ok(charges.length >= 1, 'the socket is billed as one request, part by part');
  });

  it('clears what waits on Clear, and refuses a bad key at the upgrade', async () => {
    const { key } = await suite.fixture.newAccount({ topUp: 300 });
    const client = await LiveClient.connect(
      suite.base,
      { authorization: `Token ${key}` },
      '/deepgram/v1/speak?model=keza&encoding=mulaw',
    );
    client.send({ type: 'Speak', text: 'Murakoze cyane. '.repeat(10) });
    client.send({ type: 'Flush' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.send({ type: 'Clear' });
    const cleared = await client.next((m) => m.type === 'Cleared');
    assert.equal(cleared.sequence_id, 1);
    client.send({ type: 'Close' });
    assert.equal((await client.closed).code, 1000);
    await assert.rejects(
      LiveClient.connect(suite.base, { authorization: 'Token not-a-key' }, '/deepgram/v1/speak?model=keza'),
      (error: { status?: number; body?: string }) =>
        error.status === 401 && /invalid_api_key/.test(error.body ?? ''),
    );
  });
});
