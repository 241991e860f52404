import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClausePart } from '../../src/speech/engines/engine.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { randomPieces } from '../helpers/random-markdown.ts';
import { randomSource } from '../helpers/signals.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  recordJobs,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';

// Words that cross languages through the public paths (api-v1.md, "Words that cross languages"):
// a Kinyarwanda name in an English sentence is said as a word, not spelled; a live text fed in
// pieces of 1 to 5 characters decides each word whole, exactly as the same text sent at once.

/** The measure: "Welcome to Rwanda." against "Welcome to Kenya.", in every English voice. */
const MAX_RWANDA_OVER_KENYA = 1.3;

const MIXED_REPLIES: readonly (readonly [language: string, text: string])[] = [
  [
    'rw',
    'Muraho! Booking yawe kwa Dr. Uwase yemejwe. Twakoherereje email na receipt kuri WhatsApp, murakoze cyane.',
  ],
  [
    'en',
    "Good morning, Nsengiyumva. Your taxi will meet you at Nyabugogo and drive you to Kimihurura; Rwanda's roads are quick today.",
  ],
  [
    'fr',
    "Bonjour Tuyisenge, votre rendez-vous à Musanze est confirmé. L'équipe de Huye vous attend à Gisenyi.",
  ],
];

/** The foreign words the engine was given, as `language:word`, in order. */
function foreignParts(jobs: readonly SynthesisJob[]): string[] {
  return jobs.flatMap((job) =>
    job.input.kind === 'mixed'
      ? job.input.parts
          .filter((part): part is Extract<ClausePart, { kind: 'word' }> => part.kind === 'word')
          .map((part) => `${part.language}:${part.text}`)
      : [],
  );
}

describe('words that cross languages, through the public paths', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let jobs: SynthesisJob[];

  before(async () => {
    pool = await startTestPool();
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({ pool: () => pool, liveTimings: { leadMs: 600_000 } });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const fileSeconds = async (key: string, input: string, language: string, speakerId: number) => {
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts.php',
      headers: withKey(key),
      payload: { input, language, speaker_id: speakerId },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().seconds as number;
  };

  for (const speakerId of [0, 1, 2, 3, 4]) {
    it(`English voice ${speakerId}: "Welcome to Rwanda." is said, not spelled: at most ${MAX_RWANDA_OVER_KENYA}x "Welcome to Kenya."`, async () => {
      const { key } = await fixture.newPayingAccount({ topUp: 289 });
      const rwanda = await fileSeconds(key, 'Welcome to Rwanda.', 'en', speakerId);
      const kenya = await fileSeconds(key, 'Welcome to Kenya.', 'en', speakerId);
      assert.ok(
        rwanda <= kenya * MAX_RWANDA_OVER_KENYA,
        `Rwanda ${rwanda} s against Kenya ${kenya} s (spelled letter by letter it was twice as long)`,
      );
    });
  }

  it('the stream and OpenAI-compatible endpoints say the name too: "Welcome to Rwanda." about as long as "Welcome to Kenya."', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 289 });
    const bytes = async (url: string, payload: object) => {
      const response = await fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.rawPayload.length;
    };
    for (const [url, fields] of [
      ['/api/v1/tts-stream.php', { language: 'en', speaker_id: 3, format: 'pcm16_8k' }],
      ['/v1/audio/speech', { model: 'tts-1', voice: 'james', response_format: 'pcm' }],
    ] as const) {
      const rwanda = await bytes(url, { ...fields, input: 'Welcome to Rwanda.' });
      const kenya = await bytes(url, { ...fields, input: 'Welcome to Kenya.' });
      assert.ok(rwanda <= kenya * MAX_RWANDA_OVER_KENYA, `${url}: ${rwanda} bytes against ${kenya}`);
    }
  });

  it('the file endpoint gives each foreign word to the engine whole, with its language', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 289 });
    const from = jobs.length;
    await fileSeconds(key, MIXED_REPLIES[0]?.[1] as string, 'rw', 0);
    const words = foreignParts(jobs.slice(from));
    for (const expected of ['en:Booking', 'en:email', 'en:receipt', 'en:WhatsApp'])
      assert.ok(words.includes(expected), `${expected} among ${words.join(', ')}`);
    assert.ok(!words.some((word) => /:(?:Uwase|murakoze|cyane|yawe)$/iu.test(word)), words.join(', '));
  });

  it('a live context fed in 1-5 character pieces decides every word as the text sent whole does', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 1000 });
    const client = await LiveClient.connect(base, { authorization: `Bearer ${key}` });
    try {
      for (const [index, [language, text]] of MIXED_REPLIES.entries()) {
        const whole = `whole-${index}`;
        const pieces = `pieces-${index}`;
        let from = jobs.length;
        client.send({ type: 'text', context_id: whole, text, language, format: 'mulaw_8k' });
        client.send({ type: 'end', context_id: whole });
        assert.equal((await client.ended(whole)).type, 'done');
        const wholeWords = foreignParts(jobs.slice(from));
        assert.ok(wholeWords.length >= 3, `${language}: ${wholeWords.join(', ')}`);

        from = jobs.length;
        for (const [i, piece] of randomPieces(randomSource(40 + index), text).entries())
          client.send({
            type: 'text',
            context_id: pieces,
            text: piece,
            ...(i === 0 ? { language, format: 'mulaw_8k' } : {}),
          });
        client.send({ type: 'end', context_id: pieces });
        assert.equal((await client.ended(pieces)).type, 'done');
        assert.deepEqual(foreignParts(jobs.slice(from)), wholeWords, language);
      }
    } finally {
      client.close();
    }
  });
});
