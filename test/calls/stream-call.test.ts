import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService, tokensFor } from '../../src/accounts/billing.ts';
import type { CallMetrics, CallServices } from '../../src/calls/call-services.ts';
import { type StreamCall, type StreamDelivery, speakStream } from '../../src/calls/stream-call.ts';
import { streamFormats } from '../../src/speech/audio/formats.ts';
import { plainDocument } from '../../src/speech/input/document.ts';
import type { EnginePool } from '../../src/speech/pool/engine-pool.ts';
import { AudioBoundExceeded, type SynthesisEvent } from '../../src/speech/synthesize.ts';
import { findVoice } from '../../src/speech/voices/voices.ts';
import { describeEachDatabase } from '../helpers/databases.ts';
import { startTestPool } from '../helpers/tts-fixture.ts';

// The billed stream call without any transport: a delivery that plays the client (takes the
// first audio or is gone, reads the rest or stops), and the real billing on every database. The
// charge rule of `src/calls/README.md`: charged once when the first audio reached the client, no
// net charge when it did not, the ledger's seconds the audio handed over.

const TEXT = 'Murakoze cyane. Turabakira neza, mugire umunsi mwiza.';

let pool: EnginePool;
before(async () => {
  pool = await startTestPool(1);
});
after(async () => {
  await pool?.close();
});

/** Records calls started and ended, first audio and audio delivered. */
function countingMetrics() {
  const counts = { started: 0, ended: 0, firstAudio: 0, delivered: 0 };
  const metrics: CallMetrics = {
    callStarted: () => {
      counts.started++;
      return () => {
        counts.ended++;
      };
    },
    firstAudio: () => {
      counts.firstAudio++;
    },
    audioDelivered: (_path, _engine, seconds) => {
      counts.delivered += seconds;
    },
    rateLimited: () => {},
  };
  return { counts, metrics };
}

const quiet = { info() {}, warn() {}, error() {} };

/** A client: takes the first audio (or not), then reads the rest, or stops after `readParts`. */
function client(options: { takesFirst?: boolean; readParts?: number; failRestWith?: Error } = {}) {
  const seen = { first: 0, rest: 0, cut: false, billing: undefined as unknown, bytes: 0 };
  const controller = new AbortController();
  const delivery: StreamDelivery = {
    signal: controller.signal,
    async handFirst(first, billing) {
      seen.first++;
      seen.billing = billing;
      seen.bytes += first.audio.bytes.byteLength;
      return options.takesFirst ?? true;
    },
    async sendRest(events: AsyncIterator<SynthesisEvent>, delivered) {
      let parts = 0;
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const event = next.value;
        if (event.type === 'end') return event.seconds;
        if (event.type !== 'audio') continue;
        if (options.readParts !== undefined && parts >= options.readParts) {
          controller.abort(new Error('client gone'));
          throw new Error('client gone');
        }
        if (options.failRestWith) throw options.failRestWith;
        parts++;
        seen.rest++;
        seen.bytes += event.bytes.byteLength;
        delivered.seconds += event.seconds;
      }
      return delivered.seconds;
    },
    cut() {
      seen.cut = true;
    },
  };
  return { seen, delivery, controller };
}

describeEachDatabase('the stream call', (context) => {
  let accounts: AccountService;
  let billing: BillingService;
  let services: CallServices;
  let counts: ReturnType<typeof countingMetrics>['counts'];
  let request = 0;

  before(() => {
    accounts = new AccountService({ accounts: context.db.accounts, keys: context.db.keys });
    billing = new BillingService({ accounts: context.db.accounts, ledger: context.db.ledger });
    const recorded = countingMetrics();
    counts = recorded.counts;
    services = { pool: () => pool, billing, charsPerToken: 100, metrics: recorded.metrics };
  });

  /** An account whose free generations are used up, holding `tokens`. */
  async function payingAccount(tokens: number): Promise<string> {
    const created = await accounts.createAccount({ name: 'Call room clinic' });
    assert.ok(created.ok);
    const accountId = created.account.id;
    for (let i = 0; i < 5; i++) {
      const used = await billing.commitCharge(accountId, {
        tokens: 1,
        seconds: 1,
        characters: 5,
        language: 'rw',
        requestId: `req_trial_${accountId}_${i}`,
        studio: false,
      });
      assert.ok(used.ok);
    }
    if (tokens > 0) assert.ok((await billing.topUp(accountId, tokens)).ok);
    return accountId;
  }

  function call(accountId: string, text = TEXT, maxSeconds = 60): StreamCall {
    const voice = findVoice('rw', 0);
    assert.ok(voice);
    return {
      accountId,
      requestId: `req_call_${context.kind}_${++request}`,
      speech: { document: plainDocument(text), voice, maxSeconds },
      target: { kind: 'stream', format: streamFormats.pcm16_8k },
      studio: false,
      path: 'stream',
      arrivedAt: performance.now(),
    };
  }

  /** What the ledger says of one request: its net tokens and the seconds of its charge. */
  async function ledgerOf(accountId: string, requestId: string) {
    const listed = await billing.listLedger(accountId, { limit: 100 });
    assert.ok(listed.ok);
    const entries = listed.entries.filter((entry) => entry.requestId === requestId);
    const charge = entries.find((entry) => entry.kind === 'charge');
    return {
      kinds: entries.map((entry) => entry.kind).sort(),
      net: entries.reduce((sum, entry) => sum + entry.tokens, 0),
      seconds: charge?.seconds ?? null,
    };
  }

  it('charges once, at the first audio, and records the seconds the client was given', async () => {
    const accountId = await payingAccount(300);
    const { seen, delivery } = client();
    const spoken = call(accountId);
    const before = { ...counts };
    const outcome = await speakStream(services, spoken, delivery, quiet);
    assert.deepEqual(outcome, { ok: true });
    assert.equal(seen.first, 1);
    assert.ok(seen.rest > 0, 'the rest of the audio was sent');
    assert.equal(seen.cut, false);
    const tokens = tokensFor(spoken.speech.document.spokenCharacters, 100);
    assert.equal((seen.billing as { tokens_charged: number }).tokens_charged, tokens);
    const ledger = await ledgerOf(accountId, spoken.requestId);
    assert.deepEqual(ledger.kinds, ['charge']);
    assert.equal(ledger.net, -tokens);
    // 16-bit mono at 8 kHz: the bytes handed over are the seconds recorded.
    const heard = seen.bytes / (2 * 8000);
    assert.ok(
      Math.abs((ledger.seconds ?? 0) - heard) < 0.05,
      `${ledger.seconds} s recorded, ${heard} s sent`,
    );
    assert.equal(counts.started - before.started, 1);
    assert.equal(counts.ended - before.ended, 1);
    assert.equal(counts.firstAudio - before.firstAudio, 1);
  });

  it('gives the charge back when the first audio does not reach the client', async () => {
    const accountId = await payingAccount(300);
    const { seen, delivery } = client({ takesFirst: false });
    const spoken = call(accountId);
    assert.deepEqual(await speakStream(services, spoken, delivery, quiet), { ok: true });
    assert.equal(seen.rest, 0, 'nothing is sent after a first audio that was not delivered');
    assert.equal(seen.cut, true);
    const ledger = await ledgerOf(accountId, spoken.requestId);
    assert.deepEqual(ledger.kinds, ['charge', 'refund']);
    assert.equal(ledger.net, 0);
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.equal(balance.balance, 300);
  });

  it('charges nothing for a client gone before the first audio', async () => {
    const accountId = await payingAccount(300);
    const { seen, delivery, controller } = client();
    controller.abort(new Error('client gone'));
    const spoken = call(accountId);
    await speakStream(services, spoken, delivery, quiet).catch(() => undefined);
    assert.equal(seen.first, 0, 'no audio is handed to a client that left');
    const ledger = await ledgerOf(accountId, spoken.requestId);
    assert.equal(ledger.net, 0);
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.equal(balance.balance, 300);
  });

  it('records, for a client that stops reading, the audio it was given, and keeps the charge', async () => {
    const accountId = await payingAccount(300);
    const long = `${TEXT} ${TEXT} ${TEXT} ${TEXT}`;
    const { seen, delivery } = client({ readParts: 1 });
    const spoken = call(accountId, long);
    assert.deepEqual(await speakStream(services, spoken, delivery, quiet), { ok: true });
    assert.equal(seen.cut, true);
    const ledger = await ledgerOf(accountId, spoken.requestId);
    assert.deepEqual(ledger.kinds, ['charge']);
    const heard = seen.bytes / (2 * 8000);
    assert.ok(
      Math.abs((ledger.seconds ?? 0) - heard) < 0.05,
      `${ledger.seconds} s recorded, ${heard} s sent`,
    );
  });

  it('gives the charge back when the stream stops at its audio bound', async () => {
    const accountId = await payingAccount(300);
    const { seen, delivery } = client({ failRestWith: new AudioBoundExceeded(1) });
    const spoken = call(accountId, `${TEXT} ${TEXT}`);
    assert.deepEqual(await speakStream(services, spoken, delivery, quiet), { ok: true });
    assert.equal(seen.cut, true);
    const ledger = await ledgerOf(accountId, spoken.requestId);
    assert.deepEqual(ledger.kinds, ['charge', 'refund']);
    assert.equal(ledger.net, 0);
  });

  it('returns refusals as values, each costing nothing', async () => {
    const broke = await payingAccount(0);
    const poor = call(broke);
    const refused = await speakStream(services, poor, client().delivery, quiet);
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.refusal.code, 'insufficient_tokens');
    assert.deepEqual((await ledgerOf(broke, poor.requestId)).kinds, []);

    const accountId = await payingAccount(300);
    const warming = await speakStream(
      { ...services, pool: () => undefined },
      call(accountId),
      client().delivery,
      quiet,
    );
    assert.deepEqual(warming, { ok: false, refusal: { code: 'not_ready' } });

    const silent = call(accountId, '… — …');
    const { seen, delivery } = client();
    assert.deepEqual(await speakStream(services, silent, delivery, quiet), {
      ok: false,
      refusal: { code: 'nothing_to_say' },
    });
    assert.equal(seen.first, 0);
    assert.equal((await ledgerOf(accountId, silent.requestId)).net, 0);

    const gone = await speakStream(services, call('acc_nobody'), client().delivery, quiet);
    assert.deepEqual(gone, { ok: false, refusal: { code: 'account_gone' } });
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.equal(balance.balance, 300);
  });
});
