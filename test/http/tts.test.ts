import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type StreamFormat, streamFormatNames, streamFormats } from '../../src/speech/audio/formats.ts';
import { decodeAlaw, decodeMulaw } from '../../src/speech/audio/g711.ts';
import { littleEndianBytesToInt16 } from '../../src/speech/audio/pcm.ts';
import { builtInVoices } from '../../src/speech/voices/voices.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import {
  buildTtsTestApp,
  occupyEveryWorker,
  PUBLIC_BASE_URL,
  waitUntil,
  withKey,
  withTtsApp,
} from '../helpers/tts-fixture.ts';

// One short receptionist sentence per language.
const sentences: Readonly<Record<string, string>> = {
  rw: 'Muraho neza, murakaza neza kuri Ijwi.',
  en: 'Good morning, thank you for calling.',
  fr: 'Bonjour, merci de votre appel.',
};

const NATIVE_RATE = 22050;
const FLITE_RATE = 16_000;
const WAV_HEADER_BYTES = 44;

/** The PCM samples of a stream body, whatever its encoding. */
function streamSamples(body: Buffer, format: StreamFormat): Int16Array {
  const bytes = new Uint8Array(body);
  if (format.encoding === 'mulaw') return decodeMulaw(bytes);
  if (format.encoding === 'alaw') return decodeAlaw(bytes);
  return littleEndianBytesToInt16(bytes);
}

/** Checks a canonical mono 16-bit PCM WAV byte by byte and returns its samples. */
function checkWav(file: Buffer, sampleRate: number): Int16Array {
  assert.ok(file.length > WAV_HEADER_BYTES, `a WAV with data, got ${file.length} bytes`);
  assert.equal(file.toString('latin1', 0, 4), 'RIFF');
  assert.equal(file.readUInt32LE(4), file.length - 8, 'RIFF size is the file length - 8');
  assert.equal(file.toString('latin1', 8, 12), 'WAVE');
  assert.equal(file.toString('latin1', 12, 16), 'fmt ');
  assert.equal(file.readUInt32LE(16), 16, 'PCM fmt chunk');
  assert.equal(file.readUInt16LE(20), 1, 'format tag: PCM');
  assert.equal(file.readUInt16LE(22), 1, 'mono');
  assert.equal(file.readUInt32LE(24), sampleRate, 'sample rate');
  assert.equal(file.readUInt32LE(28), sampleRate * 2, 'byte rate');
  assert.equal(file.readUInt16LE(32), 2, 'block align');
  assert.equal(file.readUInt16LE(34), 16, '16-bit');
  assert.equal(file.toString('latin1', 36, 40), 'data');
  assert.equal(file.readUInt32LE(40), file.length - WAV_HEADER_BYTES, 'exact data length');
  return littleEndianBytesToInt16(new Uint8Array(file.subarray(WAV_HEADER_BYTES)));
}

describe('POST /api/v1/tts.php and /api/v1/tts-stream.php', () => {
  const suite = withTtsApp();

  // Each test has its own account, so tests share neither a rate-limit window nor a free trial.
  const post = (url: string, key: string, payload: Record<string, unknown>) =>
    suite.fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });

  const fileRequest = async (key: string, payload: Record<string, unknown>) => {
    const response = await post('/api/v1/tts.php', key, payload);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    const url = new URL(body.output_url);
    const download = await suite.fixture.app.inject({ method: 'GET', url: url.pathname });
    assert.equal(download.statusCode, 200);
    return { response, body, download };
  };

  describe('happy', () => {
    for (const voice of builtInVoices) {
      const name = `${voice.language} speaker ${voice.speakerId}`;
      it(`file: ${name} gives the contract's fields and a downloadable, exact WAV`, async () => {
        const { key } = await suite.fixture.newAccount();
        const input = sentences[voice.language] ?? '';
        const { response, body, download } = await fileRequest(key, {
          input,
          language: voice.language,
          speaker_id: voice.speakerId,
        });
        assert.match(String(response.headers['content-type']), /^application\/json/);
        assert.deepEqual(Object.keys(body).sort(), [
          'billing',
          'language',
          'output_url',
          'seconds',
          'speaker_id',
        ]);
        assert.equal(body.language, voice.language);
        assert.equal(body.speaker_id, voice.speakerId);
        assert.deepEqual(body.billing, {
          kinyarwanda_free: false,
          api_usage: true,
          tokens_charged: 0,
          token_balance: 0,
          free_uses_remaining: 4,
        });
        assert.match(
          body.output_url,
          /^https:\/\/voice\.example\.test\/generated\/audio_[0-9A-Za-z]{22}\.wav$/,
        );
        assert.ok(body.output_url.startsWith(`${PUBLIC_BASE_URL}/generated/`));

        assert.equal(download.headers['content-type'], 'audio/wav');
        // The voice's own rate: espeak-ng's 22050 Hz, Flite's 16 kHz.
        const rate = voice.engineVoice.engine === 'flite' ? FLITE_RATE : NATIVE_RATE;
        assert.equal(voice.sampleRate, rate);
        const samples = checkWav(download.rawPayload, rate);
        const dataSeconds = (download.rawPayload.length - WAV_HEADER_BYTES) / (rate * 2);
        assert.ok(Math.abs(body.seconds - dataSeconds) <= 0.01, `${body.seconds} s vs ${dataSeconds} s`);
        assert.ok(dataSeconds > 1, `a sentence lasts over a second, got ${dataSeconds} s`);
        assert.ok(voicedShare(samples, rate) > 0.4, 'speech, not silence');
      });
    }

    it('file: the voices of a language speak the same text differently', async () => {
      const { key } = await suite.fixture.newAccount({ topUp: 289 });
      for (const language of ['rw', 'en', 'fr']) {
        const files = new Set<string>();
        const ids = builtInVoices.filter((v) => v.language === language).map((v) => v.speakerId);
        for (const speakerId of ids) {
          const { download } = await fileRequest(key, {
            input: sentences[language],
            language,
            speaker_id: speakerId,
          });
          files.add(download.rawPayload.subarray(WAV_HEADER_BYTES).toString('base64'));
        }
        assert.equal(files.size, ids.length, `${language}: ${ids.length} different renderings`);
      }
    });

    it('file: language and speaker_id default to rw and 0; a speaker_id of digits is accepted', async () => {
      const { key } = await suite.fixture.newAccount();
      const { body } = await fileRequest(key, { input: sentences.rw });
      assert.equal(body.language, 'rw');
      assert.equal(body.speaker_id, 0);
      const { body: digits } = await fileRequest(key, {
        input: sentences.en,
        language: 'en',
        speaker_id: '3',
      });
      assert.equal(digits.speaker_id, 3);
    });

    it('file: X-Voice-Api-Key works as well as Authorization, and both may carry the same key', async () => {
      const { key } = await suite.fixture.newAccount();
      for (const headers of [
        { 'x-voice-api-key': key },
        { 'x-voice-api-key': key, authorization: `Bearer ${key}` },
      ]) {
        const response = await suite.fixture.app.inject({
          method: 'POST',
          url: '/api/v1/tts.php',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: { input: sentences.en, language: 'en' },
        });
        assert.equal(response.statusCode, 200, response.body);
      }
    });

    describe('stream, in every format', () => {
      let fileSeconds: number;

      before(async () => {
        const { key } = await suite.fixture.newAccount();
        const { body } = await fileRequest(key, { input: sentences.en, language: 'en', speaker_id: 1 });
        fileSeconds = body.seconds;
      });

      for (const name of streamFormatNames) {
        const format = streamFormats[name];
        it(`${name}: ${format.contentType}, whole 20 ms frames of speech as long as the file's`, async () => {
          const { key, accountId } = await suite.fixture.newAccount({ topUp: 289 });
          const response = await post('/api/v1/tts-stream.php', key, {
            input: sentences.en,
            language: 'en',
            speaker_id: 1,
            format: name,
          });
          assert.equal(response.statusCode, 200, response.body);
          assert.equal(response.headers['content-type'], format.contentType);
          assert.equal(response.headers['x-voice-sample-rate'], String(format.sampleRate));
          assert.equal(response.headers['x-voice-encoding'], format.encoding);
          assert.match(String(response.headers['x-voice-ttfa-ms']), /^\d+$/);
          assert.equal(response.headers['transfer-encoding'], 'chunked');
          assert.match(String(response.headers['x-request-id']), /^req_/);
          const after = await suite.fixture.balanceOf(accountId);
          assert.deepEqual(
            {
              charged: response.headers['x-voice-tokens-charged'],
              balance: response.headers['x-voice-token-balance'],
              free: response.headers['x-voice-free-uses-remaining'],
              kinyarwanda: response.headers['x-voice-kinyarwanda-free'],
            },
            { charged: '0', balance: String(after.balance), free: '4', kinyarwanda: 'false' },
          );

          const body = response.rawPayload;
          assert.ok(body.length > 0);
          assert.equal(body.length % format.bytesPerFrame, 0, `${body.length} bytes in whole frames`);
          const seconds = body.length / (format.sampleRate * format.bytesPerSample);
          const tolerance = Math.max(0.05 * fileSeconds, 0.06);
          assert.ok(
            Math.abs(seconds - fileSeconds) <= tolerance,
            `stream ${seconds} s, file ${fileSeconds} s for the same text`,
          );
          assert.ok(voicedShare(streamSamples(body, format), format.sampleRate) > 0.4, 'speech, not silence');
        });
      }

      it('defaults to pcm16_8k', async () => {
        const { key } = await suite.fixture.newAccount();
        const response = await post('/api/v1/tts-stream.php', key, { input: sentences.fr, language: 'fr' });
        assert.equal(response.statusCode, 200, response.body);
        assert.equal(response.headers['content-type'], 'audio/l16');
        assert.equal(response.headers['x-voice-sample-rate'], '8000');
        assert.equal(response.headers['x-voice-encoding'], 'pcm_s16le');
        assert.equal(response.rawPayload.length % streamFormats.pcm16_8k.bytesPerFrame, 0);
      });

      // A lower bound only, which no scheduling delay can break: the first audio cannot be ready
      // before the request's clause leaves the queue, and it is held there for at least 60 ms.
      it('X-Voice-Ttfa-Ms counts the time the request waited for an engine', async () => {
        const { key } = await suite.fixture.newAccount();
        const { busy, release } = await occupyEveryWorker(suite.pool);
        const pending = post('/api/v1/tts-stream.php', key, { input: sentences.en, language: 'en' });
        await waitUntil(() => suite.pool.queued >= 1, 'the request waits for an engine');
        await sleep(60);
        release();
        const response = await pending;
        await busy;
        assert.equal(response.statusCode, 200, response.body);
        const ttfa = Number(response.headers['x-voice-ttfa-ms']);
        assert.ok(Number.isInteger(ttfa) && ttfa >= 55, `X-Voice-Ttfa-Ms ${ttfa}`);
      });
    });
  });

  describe('security', () => {
    it('never takes a key from the query string or the body', async () => {
      const { key } = await suite.fixture.newAccount();
      for (const [url, payload] of [
        [`/api/v1/tts.php?api_key=${key}`, { input: 'Hello.' }],
        ['/api/v1/tts.php', { input: 'Hello.', api_key: key }],
        [`/api/v1/tts-stream.php?key=${key}`, { input: 'Hello.' }],
      ] as const) {
        const response = await suite.fixture.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/json' },
          payload,
        });
        assert.equal(response.statusCode, 401, url);
        assert.ok(!response.body.includes(key), 'the key is not echoed');
      }
    });

    it('gives every file its own unguessable id (22 base62 characters, over 128 bits)', async () => {
      const { key } = await suite.fixture.newAccount();
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const { body } = await fileRequest(key, { input: 'Same text.', language: 'en' });
        const id = /audio_([0-9A-Za-z]+)\.wav$/.exec(body.output_url)?.[1] ?? '';
        assert.equal(id.length, 22);
        ids.add(id);
      }
      assert.equal(ids.size, 3, 'the same text never reuses an id');
    });
  });

  describe('GET /api/v1/health.php, wired as the service wires it', () => {
    it('is 503 while the engines warm up, naming the engine and nothing else', async () => {
      const warming = await buildTtsTestApp({ pool: () => undefined });
      try {
        const response = await warming.app.inject({ method: 'GET', url: '/api/v1/health.php' });
        assert.equal(response.statusCode, 503);
        assert.deepEqual(response.json(), {
          status: 'not_ready',
          version: '0.0.0-test',
          checks: { engine: 'warming up', database: 'ok', rate_limit: 'ok', storage: 'ok' },
        });
      } finally {
        await warming.close();
      }
    });

    it('is 200 with all four checks ok once warm, and 503 when the database is gone', async () => {
      const own = await buildTtsTestApp({ pool: () => suite.pool });
      try {
        const ready = await own.app.inject({ method: 'GET', url: '/api/v1/health.php' });
        assert.equal(ready.statusCode, 200);
        assert.deepEqual(ready.json(), {
          status: 'ready',
          version: '0.0.0-test',
          checks: { engine: 'ok', database: 'ok', rate_limit: 'ok', storage: 'ok' },
        });

        await own.db.close();
        const response = await own.app.inject({ method: 'GET', url: '/api/v1/health.php' });
        assert.equal(response.statusCode, 503);
        const { status, checks } = response.json();
        assert.equal(status, 'not_ready');
        const { database, ...others } = checks;
        assert.equal(typeof database, 'string');
        assert.notEqual(database, 'ok');
        assert.deepEqual(others, { engine: 'ok', rate_limit: 'ok', storage: 'ok' });
      } finally {
        await own.close();
      }
    });
  });
});
