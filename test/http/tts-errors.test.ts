import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { generateApiKey } from '../../src/accounts/keys.ts';
import {
  buildTtsTestApp,
  expectError,
  rotate,
  textOfLength,
  withKey,
  withTtsApp,
} from '../helpers/tts-fixture.ts';

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';
const ENDPOINTS = [FILE, STREAM] as const;

describe('POST /api/v1/tts.php and /api/v1/tts-stream.php: errors', () => {
  const suite = withTtsApp();

  const post = (url: string, headers: Record<string, string>, payload?: string | object) =>
    suite.fixture.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload }) });

  /**
   * Every authenticated request counts against its key's rate limit, whatever its outcome, so a
   * test that sends many spreads them over several keys of one account.
   */
  const account = async (keys = 4, topUp?: number) => {
    const made = await suite.fixture.newAccount(topUp === undefined ? { keys } : { keys, topUp });
    return { ...made, next: rotate(made.keys) };
  };

  describe('happy: the limits are inclusive', () => {
    it('file: 10,000 characters (after trimming) are spoken', async () => {
      // Minutes of speech: past the free trial's 120 s, so it is paid for.
      const { key } = await account(1, 289);
      const response = await post(FILE, withKey(key), {
        input: `  ${textOfLength(10_000)}\n`,
        language: 'en',
      });
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      assert.ok(response.json().seconds > 120);
      assert.equal(response.json().billing.tokens_charged, 100);
    });

    it('stream: 4,000 code points are spoken, an emoji counting as one although it is two UTF-16 units', async () => {
      const { key } = await account(1, 289);
      const input = `${textOfLength(3_999)}😀`;
      assert.equal(input.length, 4_001);
      const response = await post(STREAM, withKey(key), { input, language: 'en', format: 'mulaw_8k' });
      assert.equal(response.statusCode, 200, response.body.slice(0, 300));
      assert.ok(response.rawPayload.length > 8000 * 30, 'minutes of audio');
    });
  });

  describe('error', () => {
    describe('401 invalid_api_key, with WWW-Authenticate: Bearer', () => {
      const cases: readonly (readonly [string, () => Promise<Record<string, string>>])[] = [
        ['no key at all', async () => ({})],
        ['an Authorization header that is not Bearer', async () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
        ['Bearer with nothing after it', async () => ({ authorization: 'Bearer ' })],
        ['a key of the wrong shape', async () => ({ authorization: 'Bearer ijwi_sk_short' })],
        [
          'a key with a wrong checksum',
          async () => {
            const { key } = await account(1);
            const last = key.at(-1) === 'A' ? 'B' : 'A';
            return { authorization: `Bearer ${key.slice(0, -1)}${last}` };
          },
        ],
        [
          'a well-formed key that was never issued',
          async () => ({ authorization: `Bearer ${generateApiKey().key}` }),
        ],
        [
          'a revoked key',
          async () => {
            const { key, keyIds } = await account(1);
            assert.ok((await suite.fixture.accounts.revokeKey(keyIds[0] ?? '')).ok);
            return { 'x-voice-api-key': key };
          },
        ],
      ];
      for (const url of ENDPOINTS) {
        for (const [name, headers] of cases) {
          it(`${url}: ${name}`, async () => {
            const response = await post(
              url,
              { ...(await headers()), 'content-type': 'application/json' },
              { input: 'Hello.', language: 'en' },
            );
            expectError(response, 401, 'invalid_api_key');
            assert.equal(response.headers['www-authenticate'], 'Bearer');
          });
        }
      }

      it('refuses a key revoked after it has been used, from the next request on', async () => {
        const { key, keyIds } = await account(1);
        const before = await post(FILE, withKey(key), { input: '' });
        expectError(before, 400, 'input_required', 'input');
        assert.ok((await suite.fixture.accounts.revokeKey(keyIds[0] ?? '')).ok);
        expectError(await post(FILE, withKey(key), { input: '' }), 401, 'invalid_api_key');
      });

      it('checks the key before the body', async () => {
        const response = await post(FILE, { 'content-type': 'application/json' }, { input: 5 });
        expectError(response, 401, 'invalid_api_key');
      });
    });

    it('400 invalid_request when Authorization and X-Voice-Api-Key carry different keys', async () => {
      const { keys } = await account(2);
      const [one = '', two = ''] = keys;
      for (const url of ENDPOINTS) {
        const response = await post(
          url,
          { authorization: `Bearer ${one}`, 'x-voice-api-key': two, 'content-type': 'application/json' },
          { input: 'Hello.', language: 'en' },
        );
        expectError(response, 400, 'invalid_request');
        assert.match(response.json().error.message, /X-Voice-Api-Key/);
      }
    });

    it('400 invalid_json for a body that is not JSON, or empty, under a JSON content type', async () => {
      const { next } = await account();
      for (const url of ENDPOINTS) {
        for (const payload of ['{"input": "Hello.', '{input: "Hello."}', '']) {
          expectError(await post(url, withKey(next()), payload), 400, 'invalid_json');
        }
      }
    });

    it('400 invalid_request for JSON that is not an object', async () => {
      const { next } = await account();
      for (const url of ENDPOINTS) {
        for (const payload of ['[{"input": "Hello."}]', 'null', '42', '"Hello."']) {
          expectError(await post(url, withKey(next()), payload), 400, 'invalid_request');
        }
      }
    });

    it('400 input_required for a missing, null, empty or blank input, or one with nothing to speak', async () => {
      const { next } = await account(4, 289);
      for (const url of ENDPOINTS) {
        for (const body of [
          { language: 'en' },
          { input: null },
          { input: '' },
          { input: ' \n\t  ' },
          { input: '!!!', language: 'en' },
          { input: '... ?', language: 'fr' },
        ]) {
          const response = await post(url, withKey(next()), body);
          expectError(response, 400, 'input_required', 'input');
        }
      }
    });

    it('400, not 402, for a text with nothing to speak from an account with nothing left', async () => {
      const paying = await suite.fixture.newPayingAccount({ keys: 2 });
      const next = rotate(paying.keys);
      for (const url of ENDPOINTS) {
        expectError(
          await post(url, withKey(next()), { input: '?!', language: 'en' }),
          400,
          'input_required',
          'input',
        );
        expectError(
          await post(url, withKey(next()), { input: 'Hello.', language: 'en' }),
          402,
          'insufficient_tokens',
        );
      }
    });

    it('400 input_too_long past 10,000 characters (file) and 4,000 (stream), counting code points', async () => {
      const { next } = await account();
      const cases = [
        [FILE, textOfLength(10_001), 10_001, 10_000],
        [STREAM, textOfLength(4_001), 4_001, 4_000],
        [STREAM, '😀'.repeat(4_001), 4_001, 4_000],
        [FILE, '😀'.repeat(10_001), 10_001, 10_000],
      ] as const;
      for (const [url, input, length, limit] of cases) {
        const error = expectError(
          await post(url, withKey(next()), { input }),
          400,
          'input_too_long',
          'input',
        );
        assert.equal(error.message, `input has ${length} characters; the limit is ${limit}`);
      }
    });

    it('400 for fields of the wrong type', async () => {
      const { next } = await account();
      const cases = [
        [{ input: 42 }, 'invalid_request', 'input'],
        [{ input: ['Hello.'] }, 'invalid_request', 'input'],
        [{ input: { text: 'Hello.' } }, 'invalid_request', 'input'],
        [{ input: 'Hello.', speaker_id: 1.5 }, 'invalid_speaker', 'speaker_id'],
        [{ input: 'Hello.', speaker_id: 'abc' }, 'invalid_speaker', 'speaker_id'],
        [{ input: 'Hello.', speaker_id: true }, 'invalid_speaker', 'speaker_id'],
        [{ input: 'Hello.', speaker_id: '' }, 'invalid_speaker', 'speaker_id'],
        [{ input: 'Hello.', language: 5 }, 'unsupported_language', 'language'],
        [{ input: 'Hello.', language: ['en'] }, 'unsupported_language', 'language'],
      ] as const;
      for (const url of ENDPOINTS) {
        for (const [body, code, param] of cases) {
          expectError(await post(url, withKey(next()), body), 400, code, param);
        }
      }
    });

    it('400 unsupported_language for a language outside rw, en, fr', async () => {
      const { next } = await account();
      for (const url of ENDPOINTS) {
        for (const language of ['de', 'sw', 'EN', 'en-US', '']) {
          const error = expectError(
            await post(url, withKey(next()), { input: 'Hello.', language }),
            400,
            'unsupported_language',
            'language',
          );
          assert.match(error.message, /rw, en, fr/);
        }
      }
    });

    it('400 invalid_speaker for a speaker_id outside the language range', async () => {
      const { next } = await account();
      const cases = [
        ['rw', 3, '0-2'],
        ['fr', 3, '0-2'],
        ['en', 5, '0-4'],
        ['rw', -1, '0-2'],
        ['en', -1, '0-4'],
        ['fr', 1000, '0-2'],
      ] as const;
      for (const url of ENDPOINTS) {
        for (const [language, speakerId, range] of cases) {
          const error = expectError(
            await post(url, withKey(next()), { input: 'Hello.', language, speaker_id: speakerId }),
            400,
            'invalid_speaker',
            'speaker_id',
          );
          assert.match(error.message, new RegExp(`${language} must be an integer from ${range}`));
        }
      }
    });

    it('400 unsupported_format on the stream endpoint for a format it does not have', async () => {
      const { next } = await account();
      for (const format of ['mp3', 'wav', 'PCM16_8K', 'pcm16_48k', 'mulaw', 8000]) {
        const error = expectError(
          await post(STREAM, withKey(next()), { input: 'Hello.', language: 'en', format }),
          400,
          'unsupported_format',
          'format',
        );
        assert.match(
          error.message,
          /pcm16_8k, pcm16_16k, pcm16_24k, mulaw_8k, alaw_8k, pcm16_22k, pcm16_44k/,
        );
      }
    });

    it('410 voice_cloning_retired for a body with a reference-audio field', async () => {
      const { next } = await account();
      for (const url of ENDPOINTS) {
        for (const field of ['speaker_wav', 'reference_audio', 'voice_sample']) {
          const response = await post(url, withKey(next()), {
            input: 'Hello.',
            language: 'en',
            [field]: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEA',
          });
          expectError(response, 410, 'voice_cloning_retired', field);
        }
      }
    });

    it('410 voice_cloning_retired for any request to the retired cloning paths, whatever its body', async () => {
      const { key } = await account(1);
      // What cloning clients sent: a reference recording as a multipart upload, or JSON.
      const boundary = 'ijwi-test-boundary';
      const upload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="speaker_wav"; filename="me.wav"\r\n` +
            'Content-Type: audio/wav\r\n\r\n',
        ),
        Buffer.alloc(2048, 1),
        Buffer.from(
          `\r\n--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\nHello.\r\n--${boundary}--\r\n`,
        ),
      ]);
      const bodies = [
        { headers: {} },
        { headers: withKey(key), payload: { speaker_wav: 'UklGRg==', input: 'Hello.' } },
        { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: upload },
        { headers: { 'content-type': 'application/json' }, payload: '{"speaker_wav": ' },
        { headers: { 'content-type': 'audio/wav' }, payload: Buffer.alloc(100 * 1024, 1) },
      ];
      for (const url of ['/api/v1/clone.php', '/api/v1/voice-clone.php']) {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          for (const body of method === 'GET' ? bodies.slice(0, 1) : bodies) {
            const response = await suite.fixture.app.inject({ method, url, ...body });
            expectError(response, 410, 'voice_cloning_retired');
          }
        }
      }
    });

    it('405 method_not_allowed with Allow: POST for other methods on the TTS paths', async () => {
      for (const url of ENDPOINTS) {
        for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
          const response = await suite.fixture.app.inject({ method, url });
          expectError(response, 405, 'method_not_allowed');
          assert.equal(response.headers.allow, 'POST');
        }
      }
    });

    it('404 not_found for an unknown path under the API', async () => {
      expectError(await post('/api/v1/speak.php', withKey('x'), { input: 'Hello.' }), 404, 'not_found');
    });

    it('413 body_too_large for a body over 64 KiB', async () => {
      const { next } = await account();
      for (const url of ENDPOINTS) {
        const payload = JSON.stringify({ input: 'a'.repeat(64 * 1024) });
        expectError(await post(url, withKey(next()), payload), 413, 'body_too_large');
      }
    });

    it('415 unsupported_media_type for a body that is not JSON', async () => {
      const { next } = await account();
      const cases = [
        ['text/plain', 'Hello.'],
        ['text/plain; charset=utf-8', '{"input": "Hello."}'],
        ['application/x-www-form-urlencoded', 'input=Hello.'],
        ['application/xml', '<input>Hello.</input>'],
        ['multipart/form-data; boundary=x', '--x\r\n\r\nHello.\r\n--x--'],
      ] as const;
      for (const url of ENDPOINTS) {
        for (const [type, payload] of cases) {
          const headers = { authorization: `Bearer ${next()}`, 'content-type': type };
          expectError(await post(url, headers, payload), 415, 'unsupported_media_type');
        }
        const untyped = await suite.fixture.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${next()}` },
          payload: Buffer.from('Hello.'),
        });
        expectError(untyped, 415, 'unsupported_media_type');
      }
    });

    it('503 not_ready with Retry-After while the engines are warming up', async () => {
      const warming = await buildTtsTestApp({ pool: () => undefined });
      try {
        const { key, accountId } = await warming.newAccount({ topUp: 289 });
        for (const url of ENDPOINTS) {
          const response = await warming.app.inject({
            method: 'POST',
            url,
            headers: withKey(key),
            payload: { input: 'Hello.', language: 'en' },
          });
          expectError(response, 503, 'not_ready');
          assert.match(String(response.headers['retry-after']), /^\d+$/);
        }
        assert.deepEqual(await warming.balanceOf(accountId), { balance: 289, freeUsesRemaining: 5 });
      } finally {
        await warming.close();
      }
    });

    it('never touches billing or file storage, whatever the bad input', async () => {
      const { accountId, next } = await account(8, 289);
      const ledgerBefore = await suite.fixture.ledgerOf(accountId);
      const filesBefore = await readdir(suite.fixture.filesDir);
      const bodies: readonly (string | object)[] = [
        '{"input":',
        '[]',
        {},
        { input: '' },
        { input: '   ' },
        { input: '!!!', language: 'en' },
        { input: textOfLength(10_001), language: 'en' },
        { input: 7 },
        { input: 'Hello.', language: 'de' },
        { input: 'Hello.', language: 'en', speaker_id: 5 },
        { input: 'Hello.', speaker_id: 1.5 },
        { input: 'Hello.', speaker_wav: 'x' },
        JSON.stringify({ input: 'a'.repeat(70_000) }),
      ];
      // Fields only the stream endpoint reads (the file endpoint ignores unknown fields).
      const streamOnly = [{ input: 'Hello.', format: 'mp3' }, { input: textOfLength(4_001) }];
      const responses: LightMyRequestResponse[] = [];
      for (const url of ENDPOINTS) {
        for (const body of url === STREAM ? [...bodies, ...streamOnly] : bodies) {
          responses.push(await post(url, withKey(next()), body));
        }
        responses.push(
          await post(url, { authorization: `Bearer ${next()}`, 'content-type': 'text/plain' }, 'Hello.'),
        );
      }
      for (const response of responses) {
        assert.ok([400, 410, 413, 415].includes(response.statusCode), response.body.slice(0, 200));
      }
      assert.deepEqual(await suite.fixture.ledgerOf(accountId), ledgerBefore);
      assert.deepEqual(await suite.fixture.balanceOf(accountId), { balance: 289, freeUsesRemaining: 5 });
      assert.deepEqual(await readdir(suite.fixture.filesDir), filesBefore);
    });
  });

  describe('security', () => {
    it('answers a malformed, an unknown and a revoked key with the same body: no oracle', async () => {
      const { key, keyIds } = await account(1);
      assert.ok((await suite.fixture.accounts.revokeKey(keyIds[0] ?? '')).ok);
      const bodies = [];
      for (const presented of ['ijwi_sk_0000', generateApiKey().key, key]) {
        const response = await post(FILE, withKey(presented), { input: 'Hello.' });
        const error = expectError(response, 401, 'invalid_api_key');
        assert.ok(!response.body.includes(presented), 'the key is not echoed');
        bodies.push({ ...error, request_id: '' });
      }
      assert.deepEqual(bodies[1], bodies[0]);
      assert.deepEqual(bodies[2], bodies[0]);
    });

    it('lets a key spend only its own account: a broke account gets 402 beside a rich one', async () => {
      const rich = await account(1, 1000);
      const poor = await suite.fixture.newPayingAccount();
      const response = await post(FILE, withKey(poor.key), { input: 'Hello.', language: 'en' });
      const error = expectError(response, 402, 'insufficient_tokens');
      assert.equal(error.balance, 0);
      assert.deepEqual(await suite.fixture.balanceOf(rich.accountId), {
        balance: 1000,
        freeUsesRemaining: 5,
      });
    });
  });
});
