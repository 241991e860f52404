import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { EngineId } from '../../src/speech/engines/engine.ts';
import { engines } from '../../src/speech/engines/registry.ts';
import { LOUDNESS_TARGET_LUFS } from '../../src/speech/loudness/calibration.ts';
import { findVoice } from '../../src/speech/voices/voices.ts';
import { buildTestApp } from '../helpers/build-test-app.ts';

describe('GET /api/v1/voices.php', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await buildTestApp();
  });
  after(() => app.close());

  describe('happy', () => {
    it('is a page for people at /voices too: names, groups in words, engines, then the API names for developers', async () => {
      const short = await app.inject({ method: 'GET', url: '/voices' });
      const contract = await app.inject({ method: 'GET', url: '/api/v1/voices.php' });
      assert.equal(short.statusCode, 200);
      assert.equal(short.body, contract.body);
      assert.match(
        short.body,
        /<h3 translate="no">Amani<\/h3>\s*<p class="muted">female · African English<\/p>/,
      );
      assert.match(
        short.body,
        /Made by <span translate="no">Flite<\/span>: voices built from recordings of real speakers\./,
      );
      assert.match(
        short.body,
        /Made by <span translate="no">eSpeak NG<\/span>: formant synthesis, clear and quick, and plainly synthetic\./,
      );
      assert.ok(
        !/<th[^>]*>speaker_id<\/th><th[^>]*>Name/.test(short.body),
        'people see names first, not field names',
      );
      assert.match(short.body, /id="developers-title">For developers/);
      assert.match(short.body, /<code>african-english<\/code>/);
    });

    it('lists languages, voices, formats and limits as JSON with ?format=json', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/voices.php?format=json' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /application\/json/);
      assert.match(String(response.headers['x-request-id']), /^req_[A-Za-z0-9_-]{16}$/);
      const body = response.json();
      assert.deepEqual(
        body.languages.map((l: { code: string; voices: unknown[] }) => [l.code, l.voices.length]),
        [
          ['rw', 3],
          ['en', 5],
          ['fr', 3],
        ],
      );
      const rw = body.languages[0];
      assert.deepEqual(rw.billing, { api: 'tokens', studio: 'free' });
      assert.equal(rw.default_speaker_id, 0);
      assert.deepEqual(Object.keys(rw.voices[0]).sort(), [
        'engine',
        'gender',
        'group',
        'licence',
        'loudness_lufs',
        'name',
        'sample_rate',
        'speaker_id',
        'voice_pack',
      ]);
      // Each voice names the engine that speaks it, as the catalogue says, and its licence: a
      // built-in voice's is its engine's, for any use (a voice pack's: test/http/neural-voices.test.ts).
      for (const language of body.languages) {
        for (const voice of language.voices) {
          const engine = findVoice(language.code, voice.speaker_id)?.engineVoice.engine;
          assert.equal(voice.engine, engine);
          assert.deepEqual(voice.licence, {
            name: engines[voice.engine as EngineId].licence,
            url: engines[voice.engine as EngineId].licenceUrl,
            commercial: true,
          });
          assert.equal(voice.voice_pack, null);
          // Every built-in voice is calibrated to the one target (its audio: test/http/loudness.test.ts).
          assert.equal(voice.loudness_lufs, LOUDNESS_TARGET_LUFS);
        }
      }
      assert.equal(body.languages[1].voices[3].group, 'african-english');
      const defaults = body.formats.filter((f: { default: boolean }) => f.default);
      assert.deepEqual(
        defaults.map((f: { format: string }) => f.format),
        ['pcm16_8k'],
      );
      assert.deepEqual(
        body.formats.map((f: { format: string; content_type: string }) => `${f.format} ${f.content_type}`),
        [
          'pcm16_8k audio/l16',
          'pcm16_16k audio/l16',
          'pcm16_24k audio/l16',
          'mulaw_8k audio/basic',
          'alaw_8k audio/x-alaw-basic',
          'pcm16_22k audio/l16',
          'pcm16_44k audio/l16',
        ],
      );
      assert.deepEqual(body.limits, {
        file_max_chars: 10000,
        stream_max_chars: 4000,
        requests_per_minute: 30,
      });
    });

    it('serves a readable HTML page by default', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/voices.php' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /text\/html/);
      for (const text of ['Kinyarwanda', 'Mugisha', 'african-english', 'mulaw_8k', '10,000 characters']) {
        assert.ok(response.body.includes(text), `page mentions ${text}`);
      }
    });
  });

  describe('error', () => {
    it('answers 405 with Allow for a wrong method on a known path', async () => {
      const response = await app.inject({ method: 'DELETE', url: '/api/v1/voices.php' });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'GET, HEAD');
      const body = response.json();
      assert.equal(body.error.code, 'method_not_allowed');
      assert.equal(body.error.request_id, response.headers['x-request-id']);
    });

    it('answers 404 in the error body for an unknown path', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/nothing-here.php' });
      assert.equal(response.statusCode, 404);
      assert.deepEqual(Object.keys(response.json().error).sort(), ['code', 'message', 'param', 'request_id']);
      assert.equal(response.json().error.code, 'not_found');
    });
  });

  describe('security', () => {
    it('ignores a client-supplied request id', async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/voices.php',
        headers: { 'request-id': 'evil' },
      });
      assert.notEqual(response.headers['x-request-id'], 'evil');
    });
  });
});
