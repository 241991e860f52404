import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tokensFor } from '../../src/accounts/billing.ts';
import { PrometheusMetrics } from '../../src/metrics/prometheus.ts';
import { decodeMulaw } from '../../src/speech/audio/g711.ts';
import { ClauseCache } from '../../src/speech/cache/clause-cache.ts';
import { inputText } from '../../src/speech/engines/engine.ts';
import type { EnginePool, SynthesisJob } from '../../src/speech/pool/engine-pool.ts';
import { voicedShare } from '../helpers/audio-analysis.ts';
import { LiveClient } from '../helpers/live-client.ts';
import { METRICS_TOKEN, scrape } from '../helpers/metrics.ts';
import {
  buildTtsTestApp,
  listenOnLoopback,
  occupyEveryWorker,
  recordJobs,
  startTestPool,
  type TtsFixture,
  waitUntil,
  withKey,
} from '../helpers/tts-fixture.ts';

// The clause cache behind every endpoint: a greeting said again by the same account costs no
// engine work and sounds the same, is charged the same, and is never served to another account;
// a lexicon change changes the next audio; the metrics count it all without text or accounts.

const GREETING = 'Thank you for calling Kigali Dental. How can I help you today?';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('the clause cache through the endpoints', () => {
  let pool: EnginePool;
  let fixture: TtsFixture;
  let base: string;
  let jobs: SynthesisJob[];
  const cache = new ClauseCache(8 * 1024 * 1024);
  const metrics = new PrometheusMetrics();
  metrics.observeClauseCache(() => cache.stats());

  before(async () => {
    pool = await startTestPool();
    jobs = recordJobs(pool);
    fixture = await buildTtsTestApp({
      pool: () => pool,
      clauseCache: cache,
      metrics: { recorder: metrics, token: METRICS_TOKEN },
    });
    base = await listenOnLoopback(fixture.app);
  });
  after(async () => {
    await fixture.close();
    await pool.close();
  });

  const stream = async (key: string, input: string, speakerId = 0) => {
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/api/v1/tts-stream.php',
      headers: withKey(key),
      payload: JSON.stringify({ input, language: 'en', speaker_id: speakerId, format: 'mulaw_8k' }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response;
  };
  /** Pool jobs `action` gave, and what it returned. */
  const counting = async <T>(action: () => Promise<T>): Promise<{ jobs: number; result: T }> => {
    const before = jobs.length;
    const result = await action();
    return { jobs: jobs.length - before, result };
  };

  it('streams a repeated greeting from the cache: same bytes, no engine work, charged the same', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const first = await counting(() => stream(account.key, GREETING));
    assert.equal(first.jobs, 2, 'two clauses, each spoken by the engine');
    const again = await counting(() => stream(account.key, GREETING));
    assert.equal(again.jobs, 0, 'the second time, neither asks the pool');
    assert.deepEqual(again.result.rawPayload, first.result.rawPayload);
    assert.ok(voicedShare(decodeMulaw(again.result.rawPayload), 8000) > 0.3, 'speech, not silence');
    for (const response of [first.result, again.result])
      assert.equal(response.headers['x-voice-tokens-charged'], String(tokensFor(GREETING.length)));
    const charges = (await fixture.ledgerOf(account.accountId)).filter((e) => e.kind === 'charge');
    assert.deepEqual(
      charges.map((e) => e.tokens),
      [-tokensFor(GREETING.length), -tokensFor(GREETING.length)],
      'each request is charged, the cached one like the other',
    );
  });

  it("never serves one account's clauses to another: its identical text goes to the engine", async () => {
    const one = await fixture.newPayingAccount({ topUp: 1000 });
    const two = await fixture.newPayingAccount({ topUp: 1000 });
    const text = 'Our opening hours are eight to five.';
    await stream(one.key, text, 3);
    assert.equal((await counting(() => stream(one.key, text, 3))).jobs, 0);
    const hits = cache.stats().hits;
    const other = await counting(() => stream(two.key, text, 3));
    assert.equal(other.jobs, 1, "the other account's request is spoken by the engine, as a miss is");
    assert.equal(cache.stats().hits, hits, 'and is not a hit');
  });

  it('speaks the next request with a changed lexicon its new way, never from the old audio', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const witness = await fixture.newPayingAccount({ topUp: 1000 });
    const text = 'Our clinic is in Kacyiru, near the bank.';
    const before = (await stream(account.key, text, 2)).rawPayload;
    assert.equal((await counting(() => stream(account.key, text, 2))).jobs, 0, 'cached');
    for (const owner of [account, witness]) {
      const added = await fixture.lexicons.add(owner.accountId, {
        language: 'en',
        phrase: 'kacyiru',
        kind: 'ipa',
        says: 'katʃiru',
      });
      assert.ok(added.ok, JSON.stringify(added));
    }
    const after = await counting(() => stream(account.key, text, 2));
    assert.ok(after.jobs > 0, 'the changed clauses are spoken again');
    assert.notDeepEqual(after.result.rawPayload, before, 'and sounds the new way');
    assert.deepEqual(after.result.rawPayload, (await stream(witness.key, text, 2)).rawPayload);
  });

  it('gives the file endpoint the same WAV from the cache', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const wav = async () => {
      const response = await fixture.app.inject({
        method: 'POST',
        url: '/api/v1/tts.php',
        headers: withKey(account.key),
        payload: JSON.stringify({ input: GREETING, language: 'rw', speaker_id: 1 }),
      });
      assert.equal(response.statusCode, 200, response.body);
      const url = new URL(response.json().output_url as string);
      return (await fixture.app.inject({ method: 'GET', url: url.pathname })).rawPayload;
    };
    const first = await wav();
    const again = await counting(wav);
    assert.equal(again.jobs, 0);
    assert.deepEqual(again.result, first);
  });

  it('gives a live context the cached audio and words, billed as before', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const speak = async (contextId: string) => {
      const client = await LiveClient.connect(base, bearer(account.key));
      client.send({
        type: 'text',
        context_id: contextId,
        text: GREETING,
        language: 'fr',
        speaker_id: 0,
        format: 'mulaw_8k',
      });
      client.send({ type: 'end', context_id: contextId });
      const done = await client.ended(contextId);
      client.close();
      assert.equal(done.type, 'done', JSON.stringify(done));
      const words = client.of(contextId, 'words').flatMap((m) => m.words as unknown[]);
      return { audio: client.audio(contextId), words, billing: done.billing };
    };
    const first = await speak('c1');
    const again = await counting(() => speak('c2'));
    assert.equal(again.jobs, 0);
    assert.deepEqual(again.result.audio, first.audio);
    assert.ok(first.words.length > 5);
    assert.deepEqual(again.result.words, first.words, 'the same word timings');
    assert.equal(
      (again.result.billing as { tokens_charged: number }).tokens_charged,
      (first.billing as { tokens_charged: number }).tokens_charged,
    );
  });

  it('speaks a new greeting once for a cold burst of one account’s calls, and once more for another account', async () => {
    const caller = await fixture.newPayingAccount({ topUp: 1000, keys: 6 });
    const stranger = await fixture.newPayingAccount({ topUp: 1000 });
    const greeting = 'Welcome to Nyamirambo Pharmacy, we are open every day.';
    const numbered = (i: number) => `${greeting} Your ticket is ${i + 10}.`;
    const lookups = () => cache.stats().hits + cache.stats().misses;
    const before = lookups();
    const firstJob = jobs.length;
    // Every worker busy: the calls' first clauses all wait for the engine, as in a cold burst.
    const { busy, release } = await occupyEveryWorker(pool);
    const calls = caller.keys.map((key, i) => stream(key, numbered(i)));
    const other = stream(stranger.key, numbered(0));
    // Each call asks for its first clause and the one after it.
    await waitUntil(
      () => lookups() - before >= (caller.keys.length + 1) * 2,
      'every call asked for its clauses',
    );
    release();
    await busy;
    const [responses, otherResponse] = await Promise.all([Promise.all(calls), other]);
    const spoken = jobs
      .slice(firstJob)
      // Nyamirambo is a Kinyarwanda name: the clause reaches the engine as mixed input.
      .filter((job) => inputText(job.input).includes('Nyamirambo'));
    assert.equal(spoken.length, 2, 'the greeting went to the engine once per account');
    // The same text gives the same bytes, whoever spoke its clauses; the accounts' audio agrees.
    const [first] = responses;
    assert.ok(first);
    assert.deepEqual(first.rawPayload, otherResponse.rawPayload);
    const greetingBytes = 4000; // half a second of mulaw_8k: the greeting is longer
    for (const response of responses) {
      assert.ok(response.rawPayload.byteLength > greetingBytes);
      assert.deepEqual(
        response.rawPayload.subarray(0, greetingBytes),
        first.rawPayload.subarray(0, greetingBytes),
      );
      assert.ok(voicedShare(decodeMulaw(new Uint8Array(response.rawPayload)), 8000) > 0.3, 'speech');
    }
  });

  it('counts hits, misses, evictions and bytes in the metrics, with no text or account, and not in the health body', async () => {
    const account = await fixture.newPayingAccount({ topUp: 1000 });
    const now = cache.stats();
    assert.ok(now.hits > 0 && now.misses > 0 && now.bytes > 0);
    // The contract fixes the unauthenticated health body to these three fields.
    const response = await fixture.app.inject({ method: 'GET', url: '/api/v1/health.php' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(Object.keys(response.json()).sort(), ['checks', 'status', 'version']);

    const before = await scrape(fixture.app);
    assert.equal(before.typeOf('ijwi_clause_cache_hits_total'), 'COUNTER');
    assert.equal(before.value('ijwi_clause_cache_hits_total'), now.hits);
    assert.equal(before.value('ijwi_clause_cache_misses_total'), now.misses);
    assert.equal(before.value('ijwi_clause_cache_evictions_total'), now.evictions);
    assert.equal(before.value('ijwi_clause_cache_bytes'), now.bytes);
    assert.equal(before.value('ijwi_clause_cache_max_bytes'), 8 * 1024 * 1024);
    const headers = withKey(account.key);
    const payload = JSON.stringify({ input: GREETING, language: 'en', speaker_id: 0, format: 'mulaw_8k' });
    await fixture.app.inject({ method: 'POST', url: '/api/v1/tts-stream.php', headers, payload });
    const after = await scrape(fixture.app);
    assert.equal(
      after.value('ijwi_clause_cache_hits_total') - now.hits,
      0,
      "another account's greeting is no hit",
    );
    assert.equal(after.value('ijwi_clause_cache_misses_total') - now.misses, 2, 'its two clauses are misses');
    await fixture.app.inject({ method: 'POST', url: '/api/v1/tts-stream.php', headers, payload });
    assert.equal((await scrape(fixture.app)).value('ijwi_clause_cache_hits_total') - now.hits, 2);
    for (const secret of ['Kigali', account.accountId]) assert.ok(!after.text.includes(secret));
  });
});
