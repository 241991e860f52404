import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { FREE_MAX_SECONDS } from '../../src/accounts/billing.ts';
import type { LedgerEntry } from '../../src/accounts/repositories.ts';
import { MAX_SECONDS_PER_CHARACTER } from '../../src/speech/audio-bound.ts';
import { MemoryRateLimitStore } from '../../src/store/rate-limit/memory-rate-limit-store.ts';
import {
  buildTtsTestApp,
  expectError,
  occupyEveryWorker,
  SUPPORT_EMAIL,
  startTestPool,
  type TtsFixture,
  textOfLength,
  waitUntil,
  withKey,
  withTtsApp,
} from '../helpers/tts-fixture.ts';

const FILE = '/api/v1/tts.php';
const STREAM = '/api/v1/tts-stream.php';

/** What a 200 says it billed: the JSON `billing` object, or the stream's X-Voice-* headers. */
interface Billed {
  readonly requestId: string;
  readonly tokensCharged: number;
  readonly tokenBalance: number;
  readonly freeUsesRemaining: number;
  readonly kinyarwandaFree: boolean;
}

function billedBy(response: LightMyRequestResponse): Billed {
  assert.equal(response.statusCode, 200, response.body.slice(0, 300));
  const requestId = String(response.headers['x-request-id']);
  if (String(response.headers['content-type']).startsWith('application/json')) {
    const { billing } = response.json();
    assert.equal(billing.api_usage, true);
    return {
      requestId,
      tokensCharged: billing.tokens_charged,
      tokenBalance: billing.token_balance,
      freeUsesRemaining: billing.free_uses_remaining,
      kinyarwandaFree: billing.kinyarwanda_free,
    };
  }
  const header = (name: string) => {
    const value = response.headers[name];
    assert.equal(typeof value, 'string', `${name} is set`);
    return String(value);
  };
  return {
    requestId,
    tokensCharged: Number(header('x-voice-tokens-charged')),
    tokenBalance: Number(header('x-voice-token-balance')),
    freeUsesRemaining: Number(header('x-voice-free-uses-remaining')),
    kinyarwandaFree: header('x-voice-kinyarwanda-free') === 'true',
  };
}

const sum = (entries: readonly LedgerEntry[]) => entries.reduce((total, e) => total + e.tokens, 0);

const REVERSAL: Partial<Record<LedgerEntry['kind'], LedgerEntry['kind']>> = {
  charge: 'refund',
  free_use: 'free_use_refund',
};

/**
 * What a failed request may leave in the ledger: nothing, or a charge committed while its audio
 * was on the way and the entry that reverses it (the contract's words). Every entry new since
 * `before` is one of such a pair, so the request cost nothing.
 */
function assertOnlyReversed(ledger: readonly LedgerEntry[], before: readonly LedgerEntry[]): void {
  const known = new Set(before.map((e) => e.id));
  const added = ledger.filter((e) => !known.has(e.id));
  assert.equal(ledger.length - added.length, before.length, 'no entry was removed');
  for (const entry of added) {
    const reversal = REVERSAL[entry.kind];
    if (reversal === undefined) continue;
    const reversed = added.filter((e) => e.requestId === entry.requestId && e.kind === reversal);
    assert.equal(reversed.length, 1, `the ${entry.kind} of ${entry.requestId} is reversed once`);
  }
  const reversals = new Set(Object.values(REVERSAL));
  assert.ok(
    added.every((e) => REVERSAL[e.kind] !== undefined || reversals.has(e.kind)),
    'only charges and their reversals were added',
  );
  assert.equal(
    added.filter((e) => reversals.has(e.kind)).length * 2,
    added.length,
    'one reversal per charge',
  );
  assert.equal(sum(added), 0, 'the request cost nothing');
}

describe('TTS billing and rate limit', () => {
  const suite = withTtsApp();

  const post = (url: string, key: string, payload: Record<string, unknown>) =>
    suite.fixture.app.inject({ method: 'POST', url, headers: withKey(key), payload });

  /** The ledger entry a request wrote, found by its request id. */
  const entryOf = async (accountId: string, requestId: string) =>
    (await suite.fixture.ledgerOf(accountId)).find((e) => e.requestId === requestId);

  describe('happy', () => {
    it('charges 1 token per started 100 code points of trimmed input, on both endpoints', async () => {
      const { key, accountId } = await suite.fixture.newPayingAccount({ topUp: 289 });
      const cases = [
        ['Hello.', 1],
        [textOfLength(100), 1],
        [textOfLength(101), 2],
        [`${textOfLength(99)}𝐀`, 1],
        [`${textOfLength(100)}𝐀`, 2],
        [`   ${textOfLength(100)} \n\t`, 1],
        [textOfLength(200), 2],
        [textOfLength(201), 3],
      ] as const;
      let balance = 289;
      for (const [i, [input, tokens]] of cases.entries()) {
        const url = i % 2 === 0 ? FILE : STREAM;
        const billed = billedBy(await post(url, key, { input, language: 'en' }));
        balance -= tokens;
        assert.deepEqual(
          { tokens: billed.tokensCharged, balance: billed.tokenBalance, free: billed.freeUsesRemaining },
          { tokens, balance, free: 0 },
          `${url} with ${[...input.trim()].length} code points`,
        );
        const entry = await entryOf(accountId, billed.requestId);
        assert.equal(entry?.kind, 'charge');
        assert.equal(entry?.tokens, -tokens);
        assert.equal(entry?.characters, [...input.trim()].length);
        assert.equal(entry?.language, 'en');
      }
      assert.deepEqual(await suite.fixture.balanceOf(accountId), { balance, freeUsesRemaining: 0 });
      assert.equal(sum(await suite.fixture.ledgerOf(accountId)), balance);
    });

    it('gives the first 5 short generations free, counting down 4 to 0, and charges the 6th', async () => {
      const { key, accountId } = await suite.fixture.newAccount({ topUp: 289 });
      const seen = [];
      for (let i = 0; i < 6; i++) {
        const url = i % 2 === 0 ? STREAM : FILE;
        const billed = billedBy(await post(url, key, { input: 'Muraho neza.', language: 'rw' }));
        assert.equal(billed.kinyarwandaFree, false, 'Kinyarwanda is free only in the studio');
        seen.push([billed.tokensCharged, billed.tokenBalance, billed.freeUsesRemaining]);
      }
      assert.deepEqual(seen, [
        [0, 289, 4],
        [0, 289, 3],
        [0, 289, 2],
        [0, 289, 1],
        [0, 289, 0],
        [1, 288, 0],
      ]);
      const ledger = await suite.fixture.ledgerOf(accountId);
      assert.deepEqual(
        ledger.map((e) => [e.kind, e.tokens]),
        [['charge', -1], ...Array(5).fill(['free_use', 0]), ['top_up', 289]],
      );
      assert.deepEqual(await suite.fixture.balanceOf(accountId), { balance: 288, freeUsesRemaining: 0 });
    });

    it('charges a stream whose audio bound reaches 120 s even with free uses left, in every language', async () => {
      for (const language of ['en', 'fr', 'rw'] as const) {
        const { key, accountId } = await suite.fixture.newAccount({ topUp: 289 });
        // The fewest characters whose bound (seconds per character, documented) reaches 120 s.
        const threshold = Math.ceil(FREE_MAX_SECONDS / MAX_SECONDS_PER_CHARACTER[language]);
        const tokens = Math.ceil(threshold / 100);
        const long = billedBy(await post(STREAM, key, { input: textOfLength(threshold), language }));
        assert.deepEqual(
          [long.tokensCharged, long.tokenBalance, long.freeUsesRemaining],
          [tokens, 289 - tokens, 5],
          language,
        );
        const short = billedBy(await post(STREAM, key, { input: textOfLength(threshold - 1), language }));
        assert.deepEqual([short.tokensCharged, short.freeUsesRemaining], [0, 4], language);
        assert.deepEqual(await suite.fixture.balanceOf(accountId), {
          balance: 289 - tokens,
          freeUsesRemaining: 4,
        });
      }
    });

    it("puts in the stream's billing headers exactly what the ledger says", async () => {
      const { key, accountId } = await suite.fixture.newPayingAccount({ topUp: 300 });
      const response = await post(STREAM, key, {
        input: textOfLength(250),
        language: 'fr',
        format: 'alaw_8k',
      });
      const billed = billedBy(response);
      const entry = await entryOf(accountId, billed.requestId);
      assert.ok(entry);
      assert.equal(billed.tokensCharged, -entry.tokens);
      assert.equal(billed.tokensCharged, 3);
      const now = await suite.fixture.balanceOf(accountId);
      assert.equal(billed.tokenBalance, now.balance);
      assert.equal(billed.freeUsesRemaining, now.freeUsesRemaining);
      assert.equal(billed.tokenBalance, sum(await suite.fixture.ledgerOf(accountId)));
    });
  });

  describe("when a stream's charge is committed", () => {
    /**
     * A stream request on `own`, and whether any audio had come from the engines when its charge
     * was committed (the pool's streams and the billing watched, as the route uses them).
     */
    async function audioAtCommit(own: TtsFixture) {
      const { key, accountId } = await own.newPayingAccount({ topUp: 289 });
      let audio = false;
      const seen: boolean[] = [];
      const synthesize = suite.pool.synthesize.bind(suite.pool);
      suite.pool.synthesize = (job) => {
        const stream = synthesize(job);
        const next = stream.next.bind(stream);
        stream.next = async () => {
          const result = await next();
          if (!result.done) audio = true;
          return result;
        };
        return stream;
      };
      const commit = own.billing.commitCharge.bind(own.billing);
      own.billing.commitCharge = async (...args) => {
        seen.push(audio);
        return commit(...args);
      };
      try {
        const response = await own.app.inject({
          method: 'POST',
          url: STREAM,
          headers: withKey(key),
          payload: { input: 'Hello, the charge is on its way.', language: 'en' },
        });
        const billed = billedBy(response);
        assert.ok(response.rawPayload.byteLength > 0, 'the stream has audio');
        assert.equal(billed.tokensCharged, 1);
        assert.equal(billed.tokenBalance, (await own.balanceOf(accountId)).balance);
        assert.equal(seen.length, 1, 'one commit');
        return seen[0];
      } finally {
        Reflect.deleteProperty(suite.pool, 'synthesize');
      }
    }

    it('with a worker free: while the engine makes its first audio, so the write costs the caller no time', async () => {
      const own = await buildTtsTestApp({ pool: () => suite.pool });
      try {
        assert.equal(await audioAtCommit(own), false);
      } finally {
        await own.close();
      }
    });

    it('with every worker busy (a burst): once its first audio is ready, as the workers take clauses', async () => {
      const own = await buildTtsTestApp({ pool: () => suite.pool });
      const { busy, release } = await occupyEveryWorker(suite.pool);
      try {
        const waiting = audioAtCommit(own);
        await waitUntil(() => suite.pool.dueJobWaiting, 'the first clause waits for a worker');
        release();
        assert.equal(await waiting, true);
      } finally {
        release();
        await busy;
        await own.close();
      }
    });
  });

  describe('concurrency', () => {
    // Billing is per account, the rate limit per key: one key per request keeps the contract's
    // limit of 30 a minute in force (no test-only limit) while every request reaches billing.
    const concurrently = (keys: readonly string[], input: string) =>
      Promise.all(keys.map((key, i) => post(i % 2 === 0 ? FILE : STREAM, key, { input, language: 'en' })));

    it('uses the free trial exactly 5 times under 50 concurrent requests; the rest get 402', async () => {
      const { keys, accountId } = await suite.fixture.newAccount({ keys: 50 });
      const filesBefore = (await readdir(suite.fixture.filesDir)).length;
      const responses = await concurrently(keys, 'Good morning.');

      const ok = responses.filter((r) => r.statusCode === 200).map(billedBy);
      const refused = responses.filter((r) => r.statusCode !== 200);
      assert.equal(ok.length, 5);
      assert.equal(refused.length, 45);
      assert.deepEqual(
        ok.map((b) => b.tokensCharged),
        [0, 0, 0, 0, 0],
      );
      assert.deepEqual(ok.map((b) => b.freeUsesRemaining).sort(), [0, 1, 2, 3, 4]);
      for (const response of refused) {
        const error = expectError(response, 402, 'insufficient_tokens');
        assert.deepEqual([error.balance, error.tokens_needed, error.minimum_top_up], [0, 1, 289]);
        assert.equal(error.support_email, SUPPORT_EMAIL, 'the 402 says where to buy tokens');
        assert.match(String(error.message), /dashboard, or write to billing@ijwi\.example/);
      }

      const ledger = await suite.fixture.ledgerOf(accountId);
      assert.deepEqual(
        ledger.map((e) => e.kind),
        Array(5).fill('free_use'),
      );
      assert.deepEqual(ledger.map((e) => e.requestId).sort(), ok.map((b) => b.requestId).sort());
      assert.deepEqual(await suite.fixture.balanceOf(accountId), { balance: 0, freeUsesRemaining: 0 });
      // A refused file request leaves no file behind: only the free ones from the file endpoint do.
      const filesMade = responses.filter((r, i) => i % 2 === 0 && r.statusCode === 200).length;
      assert.equal((await readdir(suite.fixture.filesDir)).length - filesBefore, filesMade);
    });

    it('lets exactly 10 of 200 concurrent requests spend a balance of 10 tokens; 190 get 402', async () => {
      const { keys, accountId } = await suite.fixture.newPayingAccount({ keys: 200, topUp: 289 });
      // Earlier use, written through the billing service as a request would: 10 tokens are left.
      const earlier = await suite.fixture.billing.commitCharge(accountId, {
        tokens: 279,
        seconds: 600,
        characters: 27_900,
        language: 'en',
        requestId: 'req_earlier_use',
        studio: false,
      });
      assert.ok(earlier.ok && earlier.billing.token_balance === 10);

      const responses = await concurrently(keys, 'Hello.');
      const ok = responses.filter((r) => r.statusCode === 200).map(billedBy);
      const refused = responses.filter((r) => r.statusCode !== 200);
      assert.equal(ok.length, 10);
      assert.equal(refused.length, 190);
      assert.deepEqual(
        ok.map((b) => b.tokenBalance).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        'each success saw its own charge',
      );
      for (const response of refused) {
        const error = expectError(response, 402, 'insufficient_tokens');
        assert.equal(error.balance, 0);
        assert.equal(error.tokens_needed, 1);
        assert.equal(error.minimum_top_up, 289);
        assert.match(error.message, /needs 1 tokens and the balance is 0; top up at least 289 tokens/);
      }

      const ledger = await suite.fixture.ledgerOf(accountId);
      const charges = ledger.filter((e) => e.kind === 'charge' && e.requestId !== 'req_earlier_use');
      assert.equal(charges.length, 10);
      assert.deepEqual(charges.map((e) => e.requestId).sort(), ok.map((b) => b.requestId).sort());
      assert.ok(charges.every((e) => e.tokens === -1));
      const { balance } = await suite.fixture.balanceOf(accountId);
      assert.equal(balance, 0);
      assert.equal(sum(ledger), balance, 'the balance is the sum of the ledger');
    });
  });

  describe('nothing is charged for a request that fails', () => {
    it('when synthesis fails: the engine pool closes under queued requests', async () => {
      // A pool of its own, since closing it is the point; one worker keeps it cheap to start.
      const doomed = await startTestPool(1);
      const own = await buildTtsTestApp({ pool: () => doomed });
      try {
        const { key, keys, accountId } = await own.newAccount({ keys: 3, topUp: 289 });
        const ledgerBefore = await own.ledgerOf(accountId);
        const { busy } = await occupyEveryWorker(doomed);
        const pending = [FILE, STREAM].map((url, i) =>
          own.app.inject({
            method: 'POST',
            url,
            headers: withKey(keys[i] ?? key),
            payload: { input: 'This will never be spoken.', language: 'en' },
          }),
        );
        await waitUntil(() => doomed.queued >= 2, 'both requests wait for the engine');
        await doomed.close();
        await busy;
        for (const response of await Promise.all(pending)) {
          const error = expectError(response, 500, 'internal_error');
          assert.doesNotMatch(error.message, /pool|engine|closed/i, 'no internal details');
        }
        assertOnlyReversed(await own.ledgerOf(accountId), ledgerBefore);
        assert.deepEqual(await own.balanceOf(accountId), { balance: 289, freeUsesRemaining: 5 });
        assert.deepEqual(await readdir(own.filesDir), []);
        // A closed pool is not ready: later requests are turned away before synthesis.
        const later = await own.app.inject({
          method: 'POST',
          url: FILE,
          headers: withKey(keys[2] ?? key),
          payload: { input: 'Hello.', language: 'en' },
        });
        expectError(later, 503, 'not_ready');
      } finally {
        await own.close();
        await doomed.close();
      }
    });

    it('when synthesis fails after a charge committed early: the charge is reversed', async () => {
      const doomed = await startTestPool(1);
      const own = await buildTtsTestApp({ pool: () => doomed });
      try {
        const { key, accountId } = await own.newAccount({ topUp: 289 });
        const ledgerBefore = await own.ledgerOf(accountId);
        // The worker is free, so the charge is committed while the first clause is spoken; the pool
        // then closes under it, before any audio.
        const commit = own.billing.commitCharge.bind(own.billing);
        own.billing.commitCharge = async (...args) => {
          const charged = await commit(...args);
          await doomed.close();
          return charged;
        };
        const response = await own.app.inject({
          method: 'POST',
          url: STREAM,
          headers: withKey(key),
          payload: { input: 'This will never be heard.', language: 'en' },
        });
        expectError(response, 500, 'internal_error');
        const ledger = await own.ledgerOf(accountId);
        assert.deepEqual(
          ledger.slice(0, 2).map((e) => e.kind),
          ['free_use_refund', 'free_use'],
          'the free use was taken, then given back',
        );
        assertOnlyReversed(ledger, ledgerBefore);
        assert.deepEqual(await own.balanceOf(accountId), { balance: 289, freeUsesRemaining: 5 });
      } finally {
        await own.close();
        await doomed.close();
      }
    });

    it('when the client hangs up before the first audio byte; its synthesis is dropped', async () => {
      const own = await buildTtsTestApp({ pool: () => suite.pool });
      try {
        const { keys, accountId } = await own.newAccount({ keys: 2, topUp: 289 });
        const ledgerBefore = await own.ledgerOf(accountId);
        await own.app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = own.app.server.address() as AddressInfo;

        const { busy, release } = await occupyEveryWorker(suite.pool);
        const clients = [FILE, STREAM].map((path, i) => {
          const body = JSON.stringify({ input: 'Hang up before this is spoken.', language: 'en' });
          const client = httpRequest({
            host: '127.0.0.1',
            port,
            path,
            method: 'POST',
            agent: false,
            headers: { ...withKey(keys[i] ?? ''), 'content-length': Buffer.byteLength(body) },
          });
          const outcome = new Promise<string>((resolve) => {
            client.on('response', (response) => resolve(`response ${response.statusCode}`));
            client.on('error', () => resolve('hung up'));
            client.on('close', () => resolve('closed without an error'));
          });
          client.end(body);
          return { client, outcome };
        });
        await waitUntil(() => suite.pool.queued >= 2, 'both requests wait for the engine');
        for (const { client } of clients) client.destroy();
        await waitUntil(() => suite.pool.queued === 0, 'the abandoned requests leave the queue');
        release();
        await busy;
        assert.deepEqual(await Promise.all(clients.map((c) => c.outcome)), ['hung up', 'hung up']);

        // Their clauses left the queue unspoken: a request made now still finds all five free
        // generations, and the ledger holds nothing else new but reversed charges.
        const next = await own.app.inject({
          method: 'POST',
          url: STREAM,
          headers: withKey(keys[0] ?? ''),
          payload: { input: 'Hello again.', language: 'en' },
        });
        const nextId = billedBy(next).requestId;
        assertOnlyReversed(
          await own.ledgerOf(accountId).then((l) => l.filter((e) => e.requestId !== nextId)),
          ledgerBefore,
        );
        assert.equal(billedBy(next).freeUsesRemaining, 4, 'the hung-up requests used no free generation');
        assert.deepEqual(await readdir(own.filesDir), []);
      } finally {
        await own.close();
      }
    });
  });

  describe('rate limit: 30 a minute per key, rolling', () => {
    let clock = 1_700_000_000_000;
    let limited: TtsFixture;

    before(async () => {
      limited = await buildTtsTestApp({
        pool: () => suite.pool,
        rateLimit: new MemoryRateLimitStore(() => clock),
      });
    });
    after(() => limited.close());

    const send = (url: string, key: string, payload: Record<string, unknown>) =>
      limited.app.inject({ method: 'POST', url, headers: withKey(key), payload });
    const limits = (response: LightMyRequestResponse) => [
      response.headers['ratelimit-limit'],
      response.headers['ratelimit-remaining'],
      response.headers['ratelimit-reset'],
    ];

    it('refuses the 31st request with 429, counts every other outcome, and lets requests in as the window rolls', async () => {
      const start = clock;
      const { keys, accountId } = await limited.newAccount({ keys: 2, topUp: 289 });
      const [key = '', other = ''] = keys;
      const hello = { input: 'Hello.', language: 'en' };

      const first = await send(FILE, key, hello);
      assert.equal(first.statusCode, 200);
      assert.deepEqual(limits(first), ['30', '29', '60']);

      clock = start + 30_000;
      for (let i = 0; i < 28; i++) {
        // Refused input counts too: only 429s are not counted.
        const bad = await send(i % 2 ? FILE : STREAM, key, { input: '' });
        expectError(bad, 400, 'input_required', 'input');
        assert.deepEqual(limits(bad), ['30', String(28 - i), '30']);
      }
      const thirtieth = await send(STREAM, key, hello);
      assert.equal(thirtieth.statusCode, 200);
      assert.deepEqual(limits(thirtieth), ['30', '0', '30']);

      const ledger = await limited.ledgerOf(accountId);
      for (const url of [FILE, STREAM, FILE]) {
        const refused = await send(url, key, { input: '' });
        const error = expectError(refused, 429, 'rate_limited');
        assert.match(error.message, /30 requests per minute/);
        assert.equal(refused.headers['retry-after'], '30');
        assert.deepEqual(limits(refused), ['30', '0', '30']);
      }
      assert.deepEqual(await limited.ledgerOf(accountId), ledger, 'a 429 is never billed');
      assert.equal((await send(FILE, other, hello)).statusCode, 200, 'another key has its own window');

      // The first request leaves the window: one slot, not a fresh minute.
      clock = start + 60_000;
      const again = await send(FILE, key, hello);
      assert.equal(again.statusCode, 200);
      assert.deepEqual(limits(again), ['30', '0', '30']);
      const stillFull = await send(STREAM, key, hello);
      expectError(stillFull, 429, 'rate_limited');
      assert.equal(stillFull.headers['retry-after'], '30');

      // The 29 requests of second 30 leave it too; the 429s were never counted.
      clock = start + 90_000;
      const later = await send(STREAM, key, hello);
      assert.equal(later.statusCode, 200);
      assert.deepEqual(limits(later), ['30', '28', '30']);
    });
  });
});
