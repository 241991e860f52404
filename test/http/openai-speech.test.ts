import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { findVoice, type Voice } from '../../src/speech/voices/voices.ts';
import { medianPitch, voicedShare } from '../helpers/audio-analysis.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// OpenAI's speech endpoint, driven by OpenAI's own Node client pointed at the server, and by raw
// HTTP where the client has no say (server-sent events, errors).

const SENTENCE = 'Good morning, thank you for calling the clinic.';
const WAV_HEADER_BYTES = 44;

describe('POST /v1/audio/speech (OpenAI-compatible)', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let client: OpenAI;
  let accountId: string;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
    const account = await fixture.newPayingAccount({ keys: 1, topUp: 1000 });
    accountId = account.accountId;
    client = new OpenAI({ apiKey: account.key, baseURL: `${base}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const post = (body: unknown, key?: string) =>
    fixture.app.inject({
      method: 'POST',
      url: '/v1/audio/speech',
      headers: key === undefined ? { 'content-type': 'application/json' } : withKey(key),
      payload: JSON.stringify(body),
    });

  it('speaks through the official client: a WAV at the voice rate, PCM at 24 kHz, billed as a stream', async () => {
    const before = await fixture.balanceOf(accountId);
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'grace',
      input: SENTENCE,
      response_format: 'wav',
    });
    assert.equal(response.headers.get('content-type'), 'audio/wav');
    assert.equal(response.headers.get('x-voice-model'), 'tts-1');
    const wav = Buffer.from(await response.arrayBuffer());
    const grace = findVoice('en', 0) as Voice;
    assert.equal(wav.toString('latin1', 0, 4), 'RIFF');
    assert.equal(wav.readUInt32LE(24), grace.sampleRate);
    const samples = littleEndianBytesToInt16(new Uint8Array(wav.subarray(WAV_HEADER_BYTES)));
    const seconds = samples.length / grace.sampleRate;
    assert.ok(seconds > 1.5 && seconds < 6, `${seconds} s`);
    assert.ok(voicedShare(samples, grace.sampleRate) > 0.3, 'speech, not silence');

    const pcm = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'grace',
      input: SENTENCE,
      response_format: 'pcm',
      instructions: 'Speak warmly.',
    });
    const pcmSamples = littleEndianBytesToInt16(new Uint8Array(await pcm.arrayBuffer()));
    assert.ok(Math.abs(pcmSamples.length / 24_000 - seconds) < 0.05, 'the same speech at 24 kHz');
    // Two requests of 47 characters: one token each, as on the stream endpoint.
    assert.equal((await fixture.balanceOf(accountId)).balance, before.balance - 2);
  });

  it("takes Ijwi's voice names in every language, and OpenAI's names as English voices", async () => {
    const pitchOf = async (voice: string, input = SENTENCE) => {
      const response = await client.audio.speech.create({
        model: 'ijwi',
        voice,
        input,
        response_format: 'pcm',
      });
      return medianPitch(littleEndianBytesToInt16(new Uint8Array(await response.arrayBuffer())), 24_000);
    };
    const james = await pitchOf('james');
    assert.ok(james < 140, `james ${james} Hz`);
    assert.equal(await pitchOf('onyx'), james, 'onyx is James');
    assert.ok((await pitchOf('nova')) > 160, 'nova is a female voice');
    const keza = await client.audio.speech.create({
      model: 'ijwi',
      voice: 'keza',
      input: 'Muraho neza.',
      response_format: 'pcm',
    });
    assert.ok((await keza.arrayBuffer()).byteLength > 24_000 * 2 * 0.3, 'Kinyarwanda by name');
  });

  it('speaks slower and faster with speed', async () => {
    const secondsAt = async (speed: number) => {
      const response = await client.audio.speech.create({
        model: 'tts-1',
        voice: 'claire',
        input: 'Bonjour, merci de votre appel.',
        response_format: 'pcm',
        speed,
      });
      return (await response.arrayBuffer()).byteLength / 48_000;
    };
    const normal = await secondsAt(1);
    assert.ok((await secondsAt(0.5)) > normal * 1.4);
    assert.ok((await secondsAt(2)) < normal * 0.75);
  });

  it('streams the WAV as it is made: chunked, its header open-ended, in several parts', async () => {
    const response = await fetch(`${base}/v1/audio/speech`, {
      method: 'POST',
      headers: withKey((await fixture.newAccount()).key),
      body: JSON.stringify({
        model: 'tts-1',
        voice: 'baraka',
        input: `${SENTENCE} Your appointment is on Tuesday at ten thirty. Please arrive early.`,
        response_format: 'wav',
      }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    assert.equal(response.headers.get('content-length'), null);
    const parts: Uint8Array[] = [];
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) parts.push(part);
    assert.ok(parts.length > 1, `${parts.length} part(s)`);
    const wav = Buffer.concat(parts);
    assert.equal(wav.toString('latin1', 0, 4), 'RIFF');
    assert.equal(wav.readUInt32LE(4), 0xffffffff, 'RIFF size: open-ended');
    assert.equal(wav.toString('latin1', 36, 40), 'data');
    assert.equal(wav.readUInt32LE(40), 0xffffffff, 'data size: open-ended');
    assert.equal((wav.length - WAV_HEADER_BYTES) % 2, 0, 'whole 16-bit samples');
  });

  it('streams server-sent events: audio deltas in base64, then done', async () => {
    const response = await fetch(`${base}/v1/audio/speech`, {
      method: 'POST',
      headers: withKey((await fixture.newAccount()).key),
      body: JSON.stringify({
        model: 'tts-1',
        voice: 'amani',
        input: SENTENCE,
        response_format: 'pcm',
        stream_format: 'sse',
      }),
    });
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get('content-type')), /^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice(6)) as { type: string; audio?: string });
    assert.ok(events.length >= 2);
    assert.equal(events.at(-1)?.type, 'speech.audio.done');
    const deltas = events.slice(0, -1);
    assert.ok(deltas.every((event) => event.type === 'speech.audio.delta'));
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(event.audio ?? '', 'base64')));
    assert.equal(audio.byteLength % 2, 0);
    assert.ok(voicedShare(littleEndianBytesToInt16(new Uint8Array(audio)), 24_000) > 0.3);
  });

  it("refuses what it cannot do with the API's error body and OpenAI's error type, uncharged", async () => {
    const { key, accountId: own } = await fixture.newPayingAccount({ topUp: 289 });
    const ledger = await fixture.ledgerOf(own);
    const request = { model: 'tts-1', voice: 'grace', input: 'Hello.' };
    for (const [body, code, param] of [
      [{ ...request, voice: 'bob' }, 'invalid_speaker', 'voice'],
      [{ ...request, voice: '__proto__' }, 'invalid_speaker', 'voice'],
      [{ ...request, voice: 'Grace' }, 'invalid_speaker', 'voice'],
      [{ ...request, response_format: 'aac' }, 'unsupported_format', 'response_format'],
      [{ ...request, response_format: 'MP3' }, 'unsupported_format', 'response_format'],
      [{ ...request, speed: 5 }, 'invalid_request', 'speed'],
      [{ ...request, stream_format: 'chunks' }, 'invalid_request', 'stream_format'],
      [{ ...request, model: 'tts-1\r\nX-Evil: 1' }, 'invalid_request', 'model'],
      [{ ...request, input: 'a'.repeat(4097) }, 'input_too_long', 'input'],
      [{ ...request, input: '' }, 'input_required', 'input'],
    ] as const) {
      const error = expectError(await post(body, key), 400, code, param);
      assert.equal(error.type, 'invalid_request_error', JSON.stringify(body).slice(0, 80));
    }
    const unauthorised = expectError(await post(request), 401, 'invalid_api_key');
    assert.equal(unauthorised.type, 'authentication_error');
    assert.deepEqual(await fixture.ledgerOf(own), ledger);
    // The official client reports the status and the error.
    await assert.rejects(
      client.audio.speech.create({ model: 'tts-1', voice: 'bob', input: 'Hello.' }),
      (error: unknown) =>
        error instanceof OpenAI.BadRequestError && /voice must be one of/.test(error.message),
    );
  });
});
