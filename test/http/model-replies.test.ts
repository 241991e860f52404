import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EngineInput } from '../../src/speech/engines/engine.ts';
import { markdownDocument } from '../../src/speech/markdown/read.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { frontEndFor } from '../../src/speech/text/front-end.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { randomMarkdownReply, randomPieces, wordsOf } from '../helpers/random-markdown.ts';
import { randomSource } from '../helpers/signals.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  recordJobs,
  startTestPool,
  type TtsFixture,
  withKey,
} from '../helpers/tts-fixture.ts';
import { modelReplies } from '../speech/markdown/replies.ts';

// Replies written by a language model, through the public paths (api-v1.md, "Text written by a
// language model"): each marked-up reply gives no more audio than its plain twin (markup spoken
// aloud would make it seconds longer), on the file endpoint and on the live WebSocket fed in
// pieces of 1 to 5 characters; what the live path speaks is what the reply says; random Markdown
// cut at random never puts a marker in front of an engine.

/** An engine's clause edges may differ by a frame or two where the twins' sentences are cut alike. */
const EDGE_SECONDS = 0.06;
/** On the live path, pauses between clauses cut differently may differ by this share of the audio. */
const LIVE_CUTS_SHARE = 1.1;
const MARKUP = /[*_~`#[\]|<>]/u;

/** The text an English clause gives its engine: text input, or a mixed clause's text and words (a name such as Kigali). */
const textOf = (input: EngineInput): string => {
  if (input.kind === 'text') return input.text;
  return input.kind === 'mixed'
    ? input.parts.map((part) => (part.kind === 'phonemes' ? '' : part.text)).join('')
    : '';
};

/** A rule (`---`) is a pause the plain twin has no way to write: it is allowed for. */
const rulePauses = (reply: string) =>
  markdownDocument(reply).segments.reduce(
    (s, segment) => s + (segment.kind === 'break' ? segment.ms / 1000 : 0),
    0,
  );

describe('replies written by a language model, through the public paths', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let jobs: SynthesisJob[];

  before(async () => {
    pool = await startTestPool();
    jobs = recordJobs(pool);
    // Audio is not paced to a listener here: the tests compare it, nobody plays it.
    fixture = await buildTtsTestApp({ pool: () => pool, liveTimings: { leadMs: 600_000 } });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const fileSeconds = async (key: string, input: string, language: string): Promise<number> => {
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts.php',
      headers: withKey(key),
      payload: { input, language },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().seconds as number;
  };

  /** Speaks `text` on a live context fed in 1-5 character pieces; its seconds and the words said. */
  const live = async (client: LiveClient, id: string, text: string, language: string, seed: number) => {
    for (const [i, piece] of randomPieces(randomSource(seed), text).entries())
      client.send({
        type: 'text',
        context_id: id,
        text: piece,
        ...(i === 0 ? { language, format: 'mulaw_8k' } : {}),
      });
    client.send({ type: 'end', context_id: id });
    const done = await client.ended(id);
    assert.equal(done.type, 'done', JSON.stringify(done));
    const words = client.of(id, 'words').flatMap((m) => (m.words as { text: string }[]).map((w) => w.text));
    return { seconds: done.seconds as number, characters: done.characters as number, words: words.join(' ') };
  };

  it(`file endpoint: none of the ${modelReplies.length} replies gives more audio than its plain twin`, async () => {
    for (const [i, { language, reply, says }] of modelReplies.entries()) {
      const { key } = await fixture.newPayingAccount({ topUp: 289 });
      // The twins at once: the pool speaks two calls side by side.
      const [marked, plain] = await Promise.all([
        fileSeconds(key, reply, language),
        fileSeconds(key, says, language),
      ]);
      assert.ok(marked > 0.3, `reply ${i} is spoken`);
      assert.ok(
        marked <= plain + rulePauses(reply) + EDGE_SECONDS,
        `reply ${i}: ${marked} s against ${plain} s: ${JSON.stringify(reply)}`,
      );
    }
  });

  it('live WebSocket in 1-5 character pieces: each reply says its words and gives no more audio than its twin', async () => {
    for (const [i, { language, reply, says }] of modelReplies.entries()) {
      const { key } = await fixture.newPayingAccount({ topUp: 289 });
      const client = await LiveClient.connect(base, { authorization: `Bearer ${key}` });
      try {
        // Two contexts of one connection, side by side.
        const [marked, plain] = await Promise.all([
          live(client, `m${i}`, reply, language, i),
          live(client, `p${i}`, says, language, i),
        ]);
        const frontEnd = frontEndFor(language);
        assert.deepEqual(wordsOf(marked.words), wordsOf(frontEnd.normalize(says)), `reply ${i}: ${reply}`);
        // Pieces are cut where each text has its marks: a table's cells, apart by commas only once
        // read, are one clause where the twin's are two, which may pause differently. The words
        // above are the strict check that no marker is spoken.
        assert.ok(
          marked.seconds <= plain.seconds * LIVE_CUTS_SHARE + rulePauses(reply) + EDGE_SECONDS,
          `reply ${i}: ${marked.seconds} s against ${plain.seconds} s`,
        );
        // Markup is not billed: no more characters than the plain twin has.
        assert.ok(
          marked.characters <= markdownDocument(says).spokenCharacters,
          `reply ${i}: ${marked.characters} characters billed`,
        );
      } finally {
        client.socket.close();
      }
    }
  });

  it('live WebSocket: random Markdown cut at random never reaches an engine as markup, and is all spoken', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 1000 });
    for (let seed = 1; seed <= 12; seed++) {
      const reply = randomMarkdownReply(randomSource(1000 + seed));
      const client = await LiveClient.connect(base, { authorization: `Bearer ${key}` });
      const from = jobs.length;
      try {
        const said = await live(client, `f${seed}`, reply, 'en', seed);
        const inputs = jobs.slice(from).map((job) => textOf(job.input));
        for (const input of inputs)
          assert.doesNotMatch(input, MARKUP, `seed ${seed}: ${JSON.stringify(reply)}`);
        // The whole reply, read at once on the file endpoint, gives its engines the same words.
        const wholeFrom = jobs.length;
        const whole = await fixture.app.inject({
          method: 'POST',
          url: '/api/v1/tts.php',
          headers: withKey(key),
          payload: { input: reply, language: 'en' },
        });
        const wholeInputs = jobs.slice(wholeFrom).map((job) => textOf(job.input));
        assert.equal(whole.statusCode, wholeInputs.length > 0 ? 200 : 400, whole.body);
        assert.deepEqual(
          wordsOf(inputs.join(' ')),
          wordsOf(wholeInputs.join(' ')),
          `seed ${seed}: ${JSON.stringify(reply)}`,
        );
        assert.deepEqual(wordsOf(said.words), wordsOf(inputs.join(' ')));
      } finally {
        client.socket.close();
      }
    }
  });

  it('stream and OpenAI-compatible endpoints: a marked-up reply is the same audio as its plain twin', async () => {
    const { key } = await fixture.newPayingAccount({ topUp: 289 });
    const reply = '### Great news!\n\n**Dial *182*7#** to pay, or use [our page](https://example.rw/pay) 😊';
    const twin = 'Great news!\nDial star one eight two star seven hash to pay, or use our page';
    const bytes = async (url: string, payload: object) => {
      const response = await fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.rawPayload.length;
    };
    for (const [url, fields] of [
      ['/api/v1/tts-stream.php', { language: 'en', format: 'pcm16_8k' }],
      ['/v1/audio/speech', { model: 'tts-1', voice: 'grace', response_format: 'pcm' }],
    ] as const) {
      const marked = await bytes(url, { ...fields, input: reply });
      assert.ok(marked > 16_000, `${url}: speech`);
      assert.equal(marked, await bytes(url, { ...fields, input: twin }), url);
    }
  });
});
