import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { AccountService } from '../../src/accounts/accounts.ts';
import {
  BillingService,
  type ChargeRequest,
  type CommitChargeResult,
  FREE_GENERATIONS,
  MINIMUM_TOP_UP,
  type RefundResult,
  tokensFor,
} from '../../src/accounts/billing.ts';
import { plainDocument } from '../../src/speech/input/document.ts';
import { openDatabase } from '../../src/store/db/open-database.ts';
import { StoreUnavailableError } from '../../src/store/store-unavailable.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// Rules from the API contract, Billing section: 1 token per started 100 code points of the trimmed
// input (at least 1); 5 free generations for audio under 120 s; studio Kinyarwanda free; minimum
// top-up 289 tokens; charges atomic under concurrency; balance = sum of the ledger. Everything that
// touches the ledger is part of the store contract and runs on every database.

let requestCounter = 0;

function charge(overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  requestCounter++;
  return {
    tokens: 1,
    seconds: 4.2,
    characters: 60,
    language: 'en',
    requestId: `req_test${requestCounter}`,
    studio: false,
    ...overrides,
  };
}

function codes(results: readonly CommitChargeResult[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of results) {
    const key = r.ok ? (r.entry?.kind ?? 'no_entry') : r.code;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

// A plain-text request pays for the characters of its trimmed input.
const tokensOfText = (text: string, charsPerToken?: number) =>
  tokensFor(plainDocument(text).spokenCharacters, charsPerToken);

describe('tokensFor, on plain text', () => {
  // The contract's charge rule, at its boundaries.
  it('charges 1 token per started 100 code points, at least 1', () => {
    assert.equal(tokensOfText('a'), 1);
    assert.equal(tokensOfText('a'.repeat(100)), 1);
    assert.equal(tokensOfText('a'.repeat(101)), 2);
    assert.equal(tokensOfText('a'.repeat(200)), 2);
    assert.equal(tokensOfText('a'.repeat(10_000)), 100);
    assert.equal(tokensOfText(''), 1);
  });

  // Emoji outside the Basic Multilingual Plane are one code point and two UTF-16 units
  // (The Unicode Standard, ch. 3, D75 surrogate pairs): U+1F44B WAVING HAND SIGN.
  it('counts code points, not UTF-16 units', () => {
    const wave = '\u{1F44B}';
    assert.equal(wave.length, 2);
    assert.equal(tokensOfText(wave.repeat(100)), 1);
    assert.equal(tokensOfText(wave.repeat(101)), 2);
    // French precomposed é (U+00E9) is one code point.
    assert.equal(tokensOfText('é'.repeat(100)), 1);
  });

  // Whitespace as String.prototype.trim removes it (ECMA-262 WhiteSpace and LineTerminator):
  // space, tab, newline, U+00A0 no-break space, U+3000 ideographic space.
  it('ignores leading and trailing whitespace', () => {
    const padding = ' \t\n\u00a0\u3000';
    assert.equal(tokensOfText(`${padding}${'a'.repeat(100)}${padding}`), 1);
    assert.equal(tokensOfText(`a${' '.repeat(99)}b`), 2, 'inner spaces count');
  });

  it('takes another rate when configured, and refuses a rate below 1', () => {
    assert.equal(tokensOfText('a'.repeat(51), 50), 2);
    assert.throws(() => tokensOfText('a', 0), RangeError);
  });
});

describeEachDatabase('billing', (context) => {
  let billing: BillingService;
  let accounts: AccountService;

  before(() => {
    billing = new BillingService(context.db);
    accounts = new AccountService(context.db);
  });

  async function newAccount(): Promise<string> {
    const result = await accounts.createAccount({ name: 'Billing Test' });
    assert.ok(result.ok);
    return result.account.id;
  }

  it('lets a charge go on before its commit is on disk, never a top-up or a refund', async () => {
    const accountId = await newAccount();
    const asked: { readonly beforeFlushed: boolean }[] = [];
    const recording = new BillingService({
      accounts: context.db.accounts,
      ledger: new Proxy(context.db.ledger, {
        get(ledger, name, receiver) {
          const value: unknown = Reflect.get(ledger, name, receiver);
          if (name !== 'withAccountLock' || typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const options = args[2] as { beforeFlushed?: boolean } | undefined;
            asked.push({ beforeFlushed: options?.beforeFlushed === true });
            return value.apply(ledger, args);
          };
        },
      }),
    });
    await recording.topUp(accountId, MINIMUM_TOP_UP);
    const request = charge({ seconds: 140 });
    assert.ok((await recording.commitCharge(accountId, request)).ok);
    assert.ok((await recording.refundCharge(accountId, request.requestId)).ok);
    assert.deepEqual(asked, [{ beforeFlushed: false }, { beforeFlushed: true }, { beforeFlushed: false }]);
  });

  async function ledgerSum(accountId: string): Promise<number> {
    // Straight SQL, independent of the repository code under test.
    const row = await sql<{
      total: number | null;
    }>`select sum(tokens) as total from ledger where account_id = ${accountId}`.execute(context.db.kysely);
    return Number(row.rows[0]?.total ?? 0);
  }

  async function useUpFreeTrial(accountId: string): Promise<void> {
    for (let i = 0; i < FREE_GENERATIONS; i++) {
      const result = await billing.commitCharge(accountId, charge());
      assert.ok(result.ok && result.entry?.kind === 'free_use');
    }
  }

  describe('free trial', () => {
    it('lets exactly 5 of 50 concurrent short generations go free', async () => {
      const accountId = await newAccount();
      await billing.topUp(accountId, 300);
      const results = await Promise.all(
        Array.from({ length: 50 }, () => billing.commitCharge(accountId, charge({ seconds: 119.9 }))),
      );
      const counts = codes(results);
      assert.equal(counts.get('free_use'), 5);
      assert.equal(counts.get('charge'), 45);
      const balance = await billing.balance(accountId);
      assert.deepEqual(balance, { ok: true, balance: 300 - 45, freeUsesRemaining: 0 });
      assert.equal(await ledgerSum(accountId), 300 - 45);
    });

    it('reports free uses remaining and charges nothing for them', async () => {
      const accountId = await newAccount();
      const result = await billing.commitCharge(accountId, charge({ tokens: 3 }));
      assert.ok(result.ok);
      assert.deepEqual(result.billing, {
        kinyarwanda_free: false,
        api_usage: true,
        tokens_charged: 0,
        token_balance: 0,
        free_uses_remaining: 4,
      });
    });

    it('never covers audio of 120 s or more', async () => {
      const accountId = await newAccount();
      await billing.topUp(accountId, MINIMUM_TOP_UP);
      for (const seconds of [120, 120.01, 600]) {
        const result = await billing.commitCharge(accountId, charge({ seconds, tokens: 2 }));
        assert.ok(result.ok);
        assert.equal(result.entry?.kind, 'charge');
        assert.equal(result.billing.tokens_charged, 2);
        assert.equal(result.billing.free_uses_remaining, 5);
      }
      const poor = await newAccount();
      assert.deepEqual(await billing.commitCharge(poor, charge({ seconds: 120 })), {
        ok: false,
        code: 'insufficient_tokens',
        balance: 0,
        needed: 1,
        minimumTopUp: 289,
      });
    });
  });

  describe('token charges', () => {
    it('gives exactly 10 of 200 concurrent charges to a balance that covers 10', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      const topUp = await billing.topUp(accountId, 290);
      assert.ok(topUp.ok);
      const results = await Promise.all(
        Array.from({ length: 200 }, () => billing.commitCharge(accountId, charge({ tokens: 29 }))),
      );
      const counts = codes(results);
      assert.equal(counts.get('charge'), 10);
      assert.equal(counts.get('insufficient_tokens'), 190);
      for (const r of results) {
        if (!r.ok)
          assert.deepEqual(r, {
            ok: false,
            code: 'insufficient_tokens',
            balance: 0,
            needed: 29,
            minimumTopUp: 289,
          });
      }
      const balances = results.flatMap((r) => (r.ok ? [r.billing.token_balance] : [])).sort((a, b) => a - b);
      assert.deepEqual(balances, [0, 29, 58, 87, 116, 145, 174, 203, 232, 261]);
      assert.equal(await ledgerSum(accountId), 0);
      assert.deepEqual(await billing.balance(accountId), { ok: true, balance: 0, freeUsesRemaining: 0 });
    });

    it('writes nothing when refused, and never charges one request twice', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      const before = await billing.listLedger(accountId);
      assert.equal((await billing.commitCharge(accountId, charge())).ok, false);
      assert.deepEqual(await billing.listLedger(accountId), before);

      await billing.topUp(accountId, MINIMUM_TOP_UP);
      const request = charge({ requestId: 'req_twice' });
      assert.ok((await billing.commitCharge(accountId, request)).ok);
      assert.deepEqual(await billing.commitCharge(accountId, request), {
        ok: false,
        code: 'duplicate_request',
      });
      assert.equal(await ledgerSum(accountId), MINIMUM_TOP_UP - 1);
    });

    it('refuses an unknown account', async () => {
      assert.deepEqual(await billing.commitCharge('acct_missing', charge()), {
        ok: false,
        code: 'account_not_found',
      });
      assert.deepEqual(await billing.topUp('acct_missing', 300), { ok: false, code: 'account_not_found' });
    });
  });

  describe('studio', () => {
    it('makes studio Kinyarwanda free without touching tokens, free uses or the ledger', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      const before = await billing.listLedger(accountId);
      const result = await billing.commitCharge(
        accountId,
        charge({ studio: true, language: 'rw', tokens: 50 }),
      );
      assert.ok(result.ok);
      assert.equal(result.entry, null);
      assert.deepEqual(result.billing, {
        kinyarwanda_free: true,
        api_usage: false,
        tokens_charged: 0,
        token_balance: 0,
        free_uses_remaining: 0,
      });
      assert.deepEqual(await billing.listLedger(accountId), before);
    });

    it('charges tokens for Kinyarwanda through the API and for English in the studio', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      await billing.topUp(accountId, MINIMUM_TOP_UP);
      const api = await billing.commitCharge(accountId, charge({ language: 'rw', studio: false, tokens: 4 }));
      assert.ok(api.ok);
      assert.equal(api.billing.kinyarwanda_free, false);
      assert.equal(api.billing.api_usage, true);
      assert.equal(api.billing.tokens_charged, 4);
      const studio = await billing.commitCharge(
        accountId,
        charge({ language: 'en', studio: true, tokens: 4 }),
      );
      assert.ok(studio.ok);
      assert.equal(studio.billing.kinyarwanda_free, false);
      assert.equal(studio.billing.api_usage, false);
      assert.equal(studio.billing.token_balance, MINIMUM_TOP_UP - 8);
    });
  });

  describe('precheck', () => {
    it('predicts free use, tokens or refusal without writing', async () => {
      const accountId = await newAccount();
      assert.deepEqual(await billing.precheck(accountId, 3, 10), {
        ok: true,
        via: 'free_use',
        balance: 0,
        freeUsesRemaining: 5,
      });
      assert.deepEqual(await billing.precheck(accountId, 3, 130), {
        ok: false,
        code: 'insufficient_tokens',
        balance: 0,
        needed: 3,
        minimumTopUp: 289,
      });
      assert.equal((await billing.precheck(accountId, 3, 130, { studio: true, language: 'rw' })).ok, true);
      await billing.topUp(accountId, MINIMUM_TOP_UP);
      const paid = await billing.precheck(accountId, 3, 130);
      assert.ok(paid.ok);
      assert.equal(paid.via, 'tokens');
      assert.equal(await ledgerSum(accountId), MINIMUM_TOP_UP);
    });
  });

  describe('top-ups and the ledger', () => {
    it('refuses a top-up under 289 tokens and accepts 289', async () => {
      const accountId = await newAccount();
      assert.deepEqual(await billing.topUp(accountId, 288), {
        ok: false,
        code: 'top_up_below_minimum',
        minimumTopUp: 289,
      });
      assert.equal((await billing.topUp(accountId, 0)).ok, false);
      assert.equal((await billing.topUp(accountId, -500)).ok, false);
      assert.equal((await billing.topUp(accountId, 300.5)).ok, false);
      const ok = await billing.topUp(accountId, 289);
      assert.ok(ok.ok);
      assert.equal(ok.balance, 289);
      assert.equal(ok.entry.kind, 'top_up');
      assert.equal(await ledgerSum(accountId), 289);
    });

    it('lists entries newest first, with pages', async () => {
      const accountId = await newAccount();
      await billing.topUp(accountId, 400);
      await billing.commitCharge(accountId, charge({ seconds: 200, tokens: 7, requestId: 'req_first' }));
      await billing.commitCharge(accountId, charge({ seconds: 3, requestId: 'req_second' }));
      const listed = await billing.listLedger(accountId);
      assert.ok(listed.ok);
      assert.deepEqual(
        listed.entries.map((e) => [e.kind, e.tokens, e.requestId]),
        [
          ['free_use', 0, 'req_second'],
          ['charge', -7, 'req_first'],
          ['top_up', 400, null],
        ],
      );
      const page = await billing.listLedger(accountId, { limit: 1, beforeSeq: listed.entries[0]?.seq ?? 0 });
      assert.ok(page.ok);
      assert.deepEqual(
        page.entries.map((e) => e.requestId),
        ['req_first'],
      );
    });

    it('keeps the balance and free uses equal to the ledger under concurrent top-ups and charges', async () => {
      const accountId = await newAccount();
      const work = await Promise.all([
        ...Array.from({ length: 40 }, (_, i) =>
          billing.commitCharge(accountId, charge({ tokens: 1 + (i % 7), seconds: i % 2 === 0 ? 3 : 200 })),
        ),
        ...Array.from({ length: 4 }, () => billing.topUp(accountId, MINIMUM_TOP_UP)),
      ]);
      assert.ok(work.slice(40).every((r) => r.ok));
      // Straight SQL over every entry, independent of the running totals under test.
      const rows = await sql<{
        total: number | null;
        free: number | null;
      }>`select sum(tokens) as total, sum(case when kind = 'free_use' then 1 else 0 end) as free
         from ledger where account_id = ${accountId}`.execute(context.db.kysely);
      const total = Number(rows.rows[0]?.total ?? 0);
      const free = Number(rows.rows[0]?.free ?? 0);
      assert.equal(free, FREE_GENERATIONS);
      assert.deepEqual(await context.db.ledger.summary(accountId), { balance: total, freeUses: free });
      assert.deepEqual(await billing.balance(accountId), { ok: true, balance: total, freeUsesRemaining: 0 });
      assert.equal(await context.db.ledger.summary('acct_nobody'), undefined);

      // Every entry's totals are those of the entries up to it, in seq order.
      const entries = await context.db.kysely
        .selectFrom('ledger')
        .select(['seq', 'kind', 'tokens', 'balance_after', 'free_uses_after'])
        .where('account_id', '=', accountId)
        .orderBy('seq', 'asc')
        .execute();
      let balance = 0;
      let freeUses = 0;
      for (const entry of entries) {
        balance += Number(entry.tokens);
        freeUses += entry.kind === 'free_use' ? 1 : 0;
        assert.deepEqual([Number(entry.balance_after), Number(entry.free_uses_after)], [balance, freeUses]);
      }
    });
  });

  // A stream whose client left before its first audio byte: its committed charge is reversed.
  describe('refundCharge', () => {
    async function freeUsesInLedger(accountId: string): Promise<number> {
      // Straight SQL, independent of the running totals under test.
      const row = await sql<{ free: number | null }>`
        select sum(case kind when 'free_use' then 1 when 'free_use_refund' then -1 else 0 end) as free
        from ledger where account_id = ${accountId}`.execute(context.db.kysely);
      return Number(row.rows[0]?.free ?? 0);
    }

    it('gives a charge its tokens back with one refund entry, once', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      await billing.topUp(accountId, 300);
      const charged = await billing.commitCharge(
        accountId,
        charge({ tokens: 7, requestId: 'req_refund_tokens' }),
      );
      assert.ok(charged.ok && charged.entry?.kind === 'charge');

      const refunded = await billing.refundCharge(accountId, 'req_refund_tokens');
      assert.ok(refunded.ok);
      assert.equal(refunded.alreadyRefunded, false);
      assert.equal(refunded.balance, 300);
      assert.equal(refunded.freeUsesRemaining, 0);
      assert.deepEqual(
        {
          kind: refunded.entry.kind,
          tokens: refunded.entry.tokens,
          requestId: refunded.entry.requestId,
          characters: refunded.entry.characters,
          accountId: refunded.entry.accountId,
          seq: refunded.entry.seq,
        },
        {
          kind: 'refund',
          tokens: 7,
          requestId: 'req_refund_tokens',
          characters: null,
          accountId,
          seq: charged.entry.seq + 1,
        },
      );
      assert.deepEqual(await billing.balance(accountId), { ok: true, balance: 300, freeUsesRemaining: 0 });
      assert.equal(await ledgerSum(accountId), 300);

      // A second refund writes nothing and answers with the first one.
      const again = await billing.refundCharge(accountId, 'req_refund_tokens');
      assert.ok(again.ok);
      assert.equal(again.alreadyRefunded, true);
      assert.equal(again.entry.id, refunded.entry.id);
      assert.equal(again.balance, 300);
      assert.equal(await ledgerSum(accountId), 300);
      // Nor can the request be charged again.
      const recharged = await billing.commitCharge(accountId, charge({ requestId: 'req_refund_tokens' }));
      assert.deepEqual(recharged, { ok: false, code: 'duplicate_request' });
      const listed = await billing.listLedger(accountId, { limit: 2 });
      assert.ok(listed.ok);
      assert.deepEqual(
        listed.entries.map((e) => [e.kind, e.tokens, e.requestId]),
        [
          ['refund', 7, 'req_refund_tokens'],
          ['charge', -7, 'req_refund_tokens'],
        ],
      );
    });

    it('gives a free generation back, which the next short generation uses again', async () => {
      const accountId = await newAccount();
      const used = await billing.commitCharge(accountId, charge({ requestId: 'req_refund_free' }));
      assert.ok(used.ok && used.entry?.kind === 'free_use');
      assert.equal(used.billing.free_uses_remaining, FREE_GENERATIONS - 1);

      const refunded = await billing.refundCharge(accountId, 'req_refund_free');
      assert.ok(refunded.ok);
      assert.equal(refunded.entry.kind, 'free_use_refund');
      assert.equal(refunded.entry.tokens, 0);
      assert.equal(refunded.freeUsesRemaining, FREE_GENERATIONS);
      assert.deepEqual(await context.db.ledger.summary(accountId), { balance: 0, freeUses: 0 });
      assert.equal(await freeUsesInLedger(accountId), 0);

      for (let i = 0; i < FREE_GENERATIONS; i++) {
        const free = await billing.commitCharge(accountId, charge());
        assert.ok(free.ok && free.entry?.kind === 'free_use', `free generation ${i + 1}`);
      }
      const sixth = await billing.commitCharge(accountId, charge());
      assert.equal(sixth.ok ? sixth.entry?.kind : sixth.code, 'insufficient_tokens');
    });

    it('refuses to refund what this account was never charged', async () => {
      const accountId = await newAccount();
      const other = await newAccount();
      await billing.topUp(other, 300);
      const charged = await billing.commitCharge(other, charge({ requestId: 'req_refund_other' }));
      assert.ok(charged.ok);
      const studio = await billing.commitCharge(
        accountId,
        charge({ requestId: 'req_refund_studio', studio: true, language: 'rw' }),
      );
      assert.ok(studio.ok && studio.entry === null);

      assert.deepEqual(await billing.refundCharge(accountId, 'req_refund_nothing'), {
        ok: false,
        code: 'not_charged',
      });
      assert.deepEqual(await billing.refundCharge(accountId, 'req_refund_other'), {
        ok: false,
        code: 'not_charged',
      });
      assert.deepEqual(await billing.refundCharge(accountId, 'req_refund_studio'), {
        ok: false,
        code: 'not_charged',
      });
      assert.deepEqual(await billing.refundCharge('acct_nobody', 'req_refund_other'), {
        ok: false,
        code: 'account_not_found',
      });
      await assert.rejects(billing.refundCharge(accountId, ''), RangeError);
      assert.equal(await ledgerSum(accountId), 0);
      assert.equal(await ledgerSum(other), 300, 'its charge was a free use, still there');
      assert.equal(await freeUsesInLedger(other), 1);
    });

    // Two instances on one database ("on one instance or many"), refunding the same requests
    // while the account goes on being charged and topped up.
    it('refunds each request once under concurrent refunds, charges and top-ups from two instances', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      await billing.topUp(accountId, 1000);
      const requests = Array.from({ length: 20 }, (_, i) => `req_refund_race_${accountId}_${i}`);
      for (const [i, requestId] of requests.entries()) {
        const charged = await billing.commitCharge(accountId, charge({ tokens: 1 + (i % 5), requestId }));
        assert.ok(charged.ok);
      }
      // SQLite in one process: one connection (a second would wait on the first's lock with the
      // thread blocked); several processes on one file are database.test.ts's business.
      const second = context.kind === 'postgres' ? await openDatabase(context.source) : context.db;
      try {
        const instances = [billing, new BillingService(second)];
        const work = await Promise.all([
          ...requests.flatMap((requestId) =>
            [0, 1, 0, 1].map((n) => instances[n]?.refundCharge(accountId, requestId)),
          ),
          ...Array.from({ length: 10 }, (_, i) =>
            instances[i % 2]?.commitCharge(accountId, charge({ tokens: 3 })),
          ),
          instances[1]?.topUp(accountId, MINIMUM_TOP_UP),
        ]);
        const refunds = work.slice(0, requests.length * 4) as RefundResult[];
        assert.ok(refunds.every((r) => r.ok));
        assert.equal(refunds.filter((r) => r.ok && !r.alreadyRefunded).length, requests.length);
        assert.ok(work.slice(requests.length * 4).every((r) => r?.ok === true));
      } finally {
        if (second !== context.db) await second.close();
      }
      const rows = await sql<{ request_id: string; entries: number }>`
        select request_id, count(*) as entries from ledger
        where account_id = ${accountId} and kind = 'refund' group by request_id`.execute(context.db.kysely);
      assert.equal(rows.rows.length, requests.length);
      assert.ok(rows.rows.every((r) => Number(r.entries) === 1));
      const total = await ledgerSum(accountId);
      assert.equal(total, 1000 + MINIMUM_TOP_UP - 10 * 3);
      assert.deepEqual(await context.db.ledger.summary(accountId), {
        balance: total,
        freeUses: FREE_GENERATIONS,
      });
    });
  });

  describe('recordDuration', () => {
    it('records the seconds heard once the database answers again, after failing twice', async () => {
      const accountId = await newAccount();
      await useUpFreeTrial(accountId);
      await billing.topUp(accountId, MINIMUM_TOP_UP);
      const request = charge({ seconds: 140 });
      assert.ok((await billing.commitCharge(accountId, request)).ok);
      // The database is unreachable for the stream's first two tries, as during a restart.
      let failures = 2;
      const restarting = new BillingService({
        accounts: context.db.accounts,
        ledger: new Proxy(context.db.ledger, {
          get(ledger, name, receiver) {
            if (name === 'recordSeconds' && failures > 0)
              return async () => {
                failures--;
                throw new StoreUnavailableError('database', 'ECONNREFUSED');
              };
            const value: unknown = Reflect.get(ledger, name, receiver);
            return typeof value === 'function' ? value.bind(ledger) : value;
          },
        }),
      });
      assert.equal(await restarting.recordDuration(accountId, request.requestId, 6.25), true);
      assert.equal(failures, 0);
      const listed = await billing.listLedger(accountId, { limit: 1 });
      assert.ok(listed.ok);
      assert.equal(listed.entries[0]?.requestId, request.requestId);
      assert.equal(listed.entries[0]?.seconds, 6.25);
    });
  });
});
