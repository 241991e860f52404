import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_SECONDS_PER_CHARACTER } from '../../src/speech/audio-bound.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { splitClauses } from '../../src/speech/text/clauses.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import { codePointCount } from '../../src/unicode.ts';
import {
  buildTtsTestApp,
  expectError,
  listenOnLoopback,
  recordJobs,
  startTestPool,
  type TtsFixture,
  textOfLength,
  waitUntil,
  withKey,
} from '../helpers/tts-fixture.ts';

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';

// The findings of the input-safety review, each through the public endpoints: markup obeyed,
// state carried from one customer to the next, audio beyond what the text can say, memory held
// for a client that does not read, and a NUL that cut the text short while all of it was billed.

describe('TTS input safety', () => {
  // One worker: every request runs on the engine instance the one before it used.
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let jobs: SynthesisJob[];

  before(async () => {
    pool = await startTestPool(1);
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({ pool: () => pool });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const post = (url: string, key: string, payload: Record<string, unknown>) =>
    fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });
  const ok = (response: LightMyRequestResponse) => {
    assert.equal(response.statusCode, 200, response.body.slice(0, 300));
    return response;
  };

  describe('security', () => {
    it('refuses control characters with 400 invalid_input and their position, before billing', async () => {
      // No tokens and no free use: a billing look-up would answer 402.
      const { key, accountId } = await fixture.newPayingAccount();
      const cases = [
        ['Hello\u0000 world', 5],
        ['\u0000', 0],
        ['Muraho \u001b[31m neza', 7],
        ['Bonjour\u007f', 7],
        ['😀😀 \u0085', 3],
        ['tab\tnew\nline\rthen\u0007bell', 17],
        ['lone \ud800 surrogate', 5],
      ] as const;
      for (const [input, position] of cases) {
        for (const url of [FILE, STREAM]) {
          const error = expectError(
            await post(url, key, { input, language: 'en' }),
            400,
            'invalid_input',
            'input',
          );
          assert.equal(error.position, position, JSON.stringify(input));
          assert.match(error.message, new RegExp(`position ${position}\\b`));
        }
      }
      // Only the five free uses the fixture spent: nothing was charged, nothing was refused by billing.
      const ledger = await fixture.ledgerOf(accountId);
      assert.deepEqual(
        ledger.map((e) => e.kind),
        Array(5).fill('free_use'),
      );
    });

    it('reads SSML and espeak-ng commands in plain English and French text as text', async () => {
      const { key } = await fixture.newAccount({ topUp: 1000 });
      // 27 characters that once gave 18 minutes of audio for 1 token.
      const input = '<break time="1000000ms"/>hi';
      assert.equal(codePointCount(input), 27);
      for (const language of ['en', 'fr'] as const) {
        const { seconds } = ok(await post(FILE, key, { input, language, speaker_id: 1 })).json();
        assert.ok(seconds < 27 * MAX_SECONDS_PER_CHARACTER[language], `${language}: ${seconds} s`);
        assert.ok(seconds < 10, `${language}: the markup is read, not obeyed (${seconds} s)`);
      }
    });

    it("never lets one key's markup change another key's audio on the same worker", async () => {
      const victim = await fixture.newAccount({ topUp: 1000 });
      const attacker = await fixture.newAccount({ topUp: 1000 });
      const reference = async () =>
        Promise.all(
          [
            { input: 'Your appointment is confirmed.', language: 'en', speaker_id: 2 },
            { input: 'Votre rendez-vous est confirmé.', language: 'fr', speaker_id: 0 },
            { input: 'Murakoze cyane.', language: 'rw', speaker_id: 1 },
          ].map(
            async (body) => ok(await post(STREAM, victim.key, { ...body, format: 'pcm16_16k' })).rawPayload,
          ),
        );
      const before = await reference();
      const markup = [
        '<voice name="en-us+m3"><prosody rate="x-slow" pitch="x-high">Hello</prosody>',
        '<speak><voice gender="male" age="90">Bonjour <prosody rate="20%">lentement',
        '<tts:style field="punctuation" mode="all">Hello, world.',
        '[[h@l\'oU]] <audio src="x"/> \\x01 50P &lt;break/&gt;',
      ];
      for (const input of markup) {
        for (const language of ['en', 'fr', 'rw'] as const) {
          for (const url of [FILE, STREAM]) ok(await post(url, attacker.key, { input, language }));
        }
      }
      const after = await reference();
      for (const [i, audio] of after.entries())
        assert.ok(audio.equals(before[i] ?? Buffer.alloc(0)), `voice ${i}`);
    });

    it('keeps long digit and letter runs within the documented seconds per character', async () => {
      const { key } = await fixture.newAccount({ topUp: 1000 });
      const runs = ['777777777 '.repeat(10).trim(), '7'.repeat(90), 'W X Q '.repeat(15).trim()];
      for (const language of ['rw', 'en', 'fr'] as const) {
        for (const input of runs) {
          const { seconds } = ok(await post(FILE, key, { input, language })).json();
          const perCharacter = seconds / codePointCount(input);
          assert.ok(
            perCharacter <= MAX_SECONDS_PER_CHARACTER[language],
            `${language} ${input}: ${perCharacter}`,
          );
        }
      }
    });

    it('stops synthesising for a stream whose client does not read, however long its text', async () => {
      const { key } = await fixture.newAccount({ topUp: 1000 });
      const input = textOfLength(4000);
      const clauses = splitClauses(frontEndFor('en').normalize(input)).length;
      const before = jobs.length;
      let received = 0;
      const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        const req = request(`${base}${STREAM}`, { method: 'POST', headers: withKey(key) }, resolve);
        req.on('error', reject);
        req.end(JSON.stringify({ input, language: 'en', format: 'pcm16_24k' }));
      });
      assert.equal(response.statusCode, 200);
      response.on('error', () => {});
      response.once('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        // The client stops reading: the kernel's buffers fill, then the server's writes wait.
        response.pause();
      });
      const settled = async () => {
        let seen = -1;
        while (seen !== jobs.length) {
          seen = jobs.length;
          await new Promise((resolve) => setTimeout(resolve, 400));
        }
        await waitUntil(() => pool.running === 0 && pool.queued === 0, 'the pool to go idle');
      };
      await settled();
      const stalled = jobs.length - before;
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(jobs.length - before, stalled, 'no clause is synthesised while nothing is read');
      assert.ok(
        stalled < clauses,
        `${stalled} of ${clauses} clauses synthesised for a client that reads nothing`,
      );
      assert.ok(received > 0);
      response.destroy();
    });
  });
});
