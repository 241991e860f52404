import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { decode, noDecoder, probe } from '../helpers/decoder.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// Every `response_format` of OpenAI's speech endpoint and every `output_format` of the file
// endpoint, checked by what an independent decoder (ffmpeg) hears in the bytes: the right codec,
// the duration of the same speech as WAV, and speech rather than silence.

const SENTENCE = 'Good morning, thank you for calling the clinic. Your results are ready.';
const RATE = 24_000;
/** What ffmpeg names each format's codec. */
const CODECS = { mp3: 'mp3', opus: 'opus', flac: 'flac', wav: 'pcm_s16le', pcm: 'pcm_s16le' } as const;
type Format = keyof typeof CODECS;
const FORMATS = Object.keys(CODECS) as Format[];

/** The seconds and loudness of encoded audio as ffmpeg decodes it. */
async function heard(bytes: Uint8Array, format: Format): Promise<{ seconds: number; voiced: number }> {
  if (format !== 'pcm') assert.equal((await probe(bytes)).codec, CODECS[format]);
  const samples = await decode(bytes, RATE, format === 'pcm' ? RATE : undefined);
  return { seconds: samples.length / RATE, voiced: voicedShare(samples, RATE) };
}

function assertNear(seconds: number, expected: number, what: string): void {
  assert.ok(
    Math.abs(seconds - expected) <= expected * 0.03,
    `${what}: ${seconds} s, expected ${expected} s ±3%`,
  );
}

describe('audio formats (decoded by ffmpeg)', { skip: noDecoder }, () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let key: string;
  let client: OpenAI;
  /** The sentence's duration, from its WAV. */
  let expected: number;

  before(async () => {
    pool = await startTestPool();
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
    ({ key } = await fixture.newPayingAccount({ topUp: 10_000 }));
    client = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 0 });
    const wav = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'grace',
      input: SENTENCE,
      response_format: 'wav',
    });
    expected = (await heard(new Uint8Array(await wav.arrayBuffer()), 'wav')).seconds;
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  it('gives an OpenAI client that names no format MP3 it can play', async () => {
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'grace', input: SENTENCE });
    assert.equal(response.headers.get('content-type'), 'audio/mpeg');
    const mp3 = await heard(new Uint8Array(await response.arrayBuffer()), 'mp3');
    assertNear(mp3.seconds, expected, 'mp3');
    assert.ok(mp3.voiced > 0.3, 'speech, not silence');
  });

  for (const format of FORMATS) {
    it(`speaks ${format} through the official client and raw HTTP, the same speech as the WAV`, async () => {
      const viaClient = await client.audio.speech.create({
        model: 'tts-1',
        voice: 'grace',
        input: SENTENCE,
        response_format: format,
      });
      const viaHttp = await fetch(`${base}/v1/audio/speech`, {
        method: 'POST',
        headers: withKey(key),
        body: JSON.stringify({ model: 'ijwi', voice: 'grace', input: SENTENCE, response_format: format }),
      });
      assert.equal(viaHttp.status, 200);
      assert.equal(viaHttp.headers.get('transfer-encoding'), 'chunked');
      assert.equal(viaHttp.headers.get('content-type'), viaClient.headers.get('content-type'));
      for (const bytes of [await viaClient.arrayBuffer(), await viaHttp.arrayBuffer()]) {
        const audio = await heard(new Uint8Array(bytes), format);
        assertNear(audio.seconds, expected, format);
        assert.ok(audio.voiced > 0.3, `${format}: speech, not silence`);
      }
    });
  }

  it('sends each format as server-sent events whose deltas join into the same audio', async () => {
    for (const format of ['mp3', 'opus', 'flac'] as const) {
      const response = await fetch(`${base}/v1/audio/speech`, {
        method: 'POST',
        headers: withKey(key),
        body: JSON.stringify({
          model: 'tts-1',
          voice: 'grace',
          input: SENTENCE,
          response_format: format,
          stream_format: 'sse',
        }),
      });
      assert.match(String(response.headers.get('content-type')), /^text\/event-stream/);
      const events = (await response.text())
        .split('\n\n')
        .filter((block) => block.startsWith('data: '))
        .map((block) => JSON.parse(block.slice(6)) as { type: string; audio?: string });
      assert.equal(events.at(-1)?.type, 'speech.audio.done');
      const audio = Buffer.concat(events.slice(0, -1).map((e) => Buffer.from(e.audio ?? '', 'base64')));
      assertNear((await heard(new Uint8Array(audio), format)).seconds, expected, `${format} over SSE`);
    }
  });

  it('streams a long input as it is spoken: the first bytes are playable audio long before the last', async () => {
    const long = Array(12)
      .fill('Your appointment is on Tuesday at ten thirty, in the second building, on the left.')
      .join(' ');
    for (const format of ['mp3', 'opus'] as const) {
      const started = performance.now();
      const response = await fetch(`${base}/v1/audio/speech`, {
        method: 'POST',
        headers: withKey(key),
        body: JSON.stringify({ model: 'tts-1', voice: 'james', input: long, response_format: format }),
      });
      const parts: { bytes: Uint8Array; at: number }[] = [];
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        parts.push({ bytes, at: performance.now() - started });
      }
      const whole = Buffer.concat(parts.map((part) => part.bytes));
      const total = await heard(whole, format);
      assert.ok(total.seconds > 40, `${format}: ${total.seconds} s`);
      // The first two parts decode to the start of the speech: a small share of the whole. (The
      // first alone may hold the encoder's first MP3 frame or two, fewer than a decoder needs to
      // recognise the stream.)
      const opening = await heard(Buffer.concat(parts.slice(0, 2).map((part) => part.bytes)), format);
      assert.ok(
        opening.seconds > 0 && opening.seconds < total.seconds / 5,
        `${format}: first parts ${opening.seconds} s`,
      );
      assert.ok(parts.length > 10, `${format}: ${parts.length} parts`);
      const last = parts.at(-1)?.at ?? 0;
      assert.ok(
        (parts[1]?.at ?? last) < last / 2,
        `${format}: second part at ${parts[1]?.at} ms, last at ${last} ms`,
      );
    }
  });

  it('writes files in each output_format, served with their type and extension', async () => {
    for (const format of ['wav', 'mp3', 'opus', 'flac'] as const) {
      const made = await fixture.app.inject({
        method: 'POST',
        url: '/api/v1/tts.php',
        headers: withKey(key),
        payload: JSON.stringify({ input: SENTENCE, language: 'en', output_format: format }),
      });
      assert.equal(made.statusCode, 200, made.body);
      const { output_url: url, seconds } = made.json() as { output_url: string; seconds: number };
      const path = new URL(url).pathname;
      assert.match(path, new RegExp(`^/generated/audio_[0-9A-Za-z]+\\.${format}$`));
      const file = await fixture.app.inject({ method: 'GET', url: path });
      assert.equal(file.statusCode, 200);
      const type = {
        wav: 'audio/wav',
        mp3: 'audio/mpeg',
        opus: 'audio/ogg; codecs=opus',
        flac: 'audio/flac',
      }[format];
      assert.equal(file.headers['content-type'], type);
      const audio = await heard(file.rawPayload, format);
      assertNear(audio.seconds, seconds, `${format} file`);
      assert.ok(audio.voiced > 0.3, `${format} file: speech, not silence`);
      // The same id under another format's extension is no file.
      const other = path.replace(/\.\w+$/, format === 'wav' ? '.mp3' : '.wav');
      assert.equal((await fixture.app.inject({ method: 'GET', url: other })).statusCode, 404);
      const range = await fixture.app.inject({ method: 'GET', url: path, headers: { range: 'bytes=0-99' } });
      assert.equal(range.statusCode, 206);
      assert.equal(range.rawPayload.byteLength, 100);
    }
  });

  it('refuses an output_format it does not make, uncharged', async () => {
    const { key: own, accountId } = await fixture.newPayingAccount({ topUp: 1000 });
    const ledger = await fixture.ledgerOf(accountId);
    for (const output_format of ['aac', 'MP3', 'mulaw_8k', 42]) {
      const response = await fixture.app.inject({
        method: 'POST',
        url: '/api/v1/tts.php',
        headers: withKey(own),
        payload: JSON.stringify({ input: SENTENCE, language: 'en', output_format }),
      });
      const error = expectError(response, 400, 'unsupported_format', 'output_format');
      assert.match(error.message, /wav, mp3, opus, flac/);
    }
    assert.deepEqual(await fixture.ledgerOf(accountId), ledger);
  });

  it('lists models and voices for clients that list before they speak', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    assert.ok(models.some((model) => model.id === 'tts-1' && model.object === 'model'));
    const voices = await fetch(`${base}/v1/audio/voices`);
    assert.equal(voices.status, 200);
    const { voices: names } = (await voices.json()) as { voices: string[] };
    assert.ok(names.includes('keza') && names.includes('grace'), names.join(', '));
    // Every listed voice speaks (on a key of its own: the others' minute is nearly used up).
    const own = new OpenAI({
      apiKey: (await fixture.newPayingAccount({ topUp: 1000 })).key,
      baseURL: `${base}/v1`,
      maxRetries: 0,
    });
    for (const voice of names) {
      const response = await own.audio.speech.create({
        model: 'tts-1',
        voice,
        input: 'Hello.',
        response_format: 'pcm',
      });
      assert.ok((await response.arrayBuffer()).byteLength > 0, voice);
    }
  });
});
