import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService, FREE_GENERATIONS, tokensFor } from '../../src/accounts/billing.ts';
import { newId } from '../../src/accounts/ids.ts';
import { LiveBill } from '../../src/calls/live-bill.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// A live context is billed as one stream request of all the text it spoke, part by part, never
// ahead of its audio; on every database, under concurrency.

describeEachDatabase('live context bill', (context) => {
  let billing: BillingService;
  let accounts: AccountService;

  before(() => {
    billing = new BillingService(context.db);
    accounts = new AccountService(context.db);
  });

  async function newAccount(topUp?: number): Promise<string> {
    const result = await accounts.createAccount({ name: 'Live Bill Test' });
    assert.ok(result.ok);
    if (topUp !== undefined) assert.ok((await billing.topUp(result.account.id, topUp)).ok);
    return result.account.id;
  }

  const billFor = (accountId: string, studio = false, language = 'en') =>
    new LiveBill(billing, { accountId, requestId: newId('ctx'), language, charsPerToken: 100, studio });

  async function useFreeTrial(accountId: string) {
    for (let i = 0; i < FREE_GENERATIONS; i++) {
      const used = await billFor(accountId).cover({ characters: 10, maxSeconds: 2 });
      assert.ok(used.ok);
    }
  }

  it('charges parts only what the whole text needs beyond what is paid: tokensFor(all characters)', async () => {
    const accountId = await newAccount(1000);
    await useFreeTrial(accountId);
    const bill = billFor(accountId);
    const parts = [60, 30, 20, 95, 5, 1];
    for (const characters of parts) assert.ok((await bill.cover({ characters, maxSeconds: 200 })).ok);
    const total = parts.reduce((a, b) => a + b, 0);
    const summary = await bill.summary();
    assert.equal(summary?.tokens_charged, tokensFor(total));
    assert.equal(summary?.token_balance, 1000 - tokensFor(total));
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok && balance.balance === 1000 - tokensFor(total));
  });

  it('uses one free generation while the bound stays under 120 s, and moves to tokens, giving it back, once it passes', async () => {
    const accountId = await newAccount(1000);
    const bill = billFor(accountId);
    assert.ok((await bill.cover({ characters: 50, maxSeconds: 60 })).ok);
    assert.ok((await bill.cover({ characters: 50, maxSeconds: 50 })).ok);
    let balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.deepEqual([balance.balance, balance.freeUsesRemaining], [1000, FREE_GENERATIONS - 1]);
    // 130 s of bound: a stream of this text would pay tokens, so the context does, and only them.
    const moved = await bill.cover({ characters: 80, maxSeconds: 20 });
    assert.ok(moved.ok);
    balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.deepEqual([balance.balance, balance.freeUsesRemaining], [1000 - tokensFor(180), FREE_GENERATIONS]);
    assert.equal((await bill.summary())?.tokens_charged, tokensFor(180));
  });

  it('refuses a part the balance cannot cover, keeping what earlier parts paid', async () => {
    const accountId = await newAccount();
    await useFreeTrial(accountId);
    const bill = billFor(accountId);
    const refused = await bill.cover({ characters: 10, maxSeconds: 200 });
    assert.ok(!refused.ok && refused.code === 'insufficient_tokens');
    assert.equal(bill.started, false);
  });

  it('is free for studio Kinyarwanda and writes nothing', async () => {
    const accountId = await newAccount();
    const bill = billFor(accountId, true, 'rw');
    assert.ok((await bill.cover({ characters: 400, maxSeconds: 300 })).ok);
    assert.ok((await bill.cover({ characters: 400, maxSeconds: 300 })).ok);
    assert.equal((await bill.summary())?.kinyarwanda_free, true);
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok && balance.freeUsesRemaining === FREE_GENERATIONS && balance.balance === 0);
  });

  async function paidAccount(): Promise<string> {
    const accountId = await newAccount(1000);
    await useFreeTrial(accountId);
    return accountId;
  }
  const balanceOf = async (accountId: string) => {
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    return balance.balance;
  };
  /** The seconds of the account's charges, oldest first. */
  const chargedSeconds = async (accountId: string) => {
    const ledger = await billing.listLedger(accountId, { limit: 100 });
    assert.ok(ledger.ok);
    return ledger.entries
      .filter((e) => e.kind === 'charge')
      .reverse()
      .map((e) => e.seconds);
  };
  /** Polls `read` until it gives `expected` (the records run every 2 s), for up to 10 s. */
  async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
    let seen = await read();
    for (let i = 0; i < 100 && JSON.stringify(seen) !== JSON.stringify(expected); i++) {
      await sleep(100);
      seen = await read();
    }
    assert.deepEqual(seen, expected);
  }

  it('brings its entries up to the audio sent while it goes on, each entry its share', async () => {
    const accountId = await paidAccount();
    const bill = billFor(accountId);
    let sent = 0;
    bill.follow(() => sent);
    assert.ok((await bill.cover({ characters: 150, maxSeconds: 100 })).ok);
    assert.deepEqual(await chargedSeconds(accountId), [100], 'committed on its bound');
    sent = 3.5;
    await eventually(() => chargedSeconds(accountId), [3.5]);
    assert.ok((await bill.cover({ characters: 150, maxSeconds: 100, sentBefore: 5 })).ok);
    sent = 7;
    await eventually(() => chargedSeconds(accountId), [5, 2]);
    await bill.end(8);
    assert.deepEqual(await chargedSeconds(accountId), [5, 3]);
  });

  describe('a context whose client had no frame pays nothing', () => {
    it('gives the charge back when the context ends before any frame was handed over', async () => {
      const accountId = await paidAccount();
      const bill = billFor(accountId);
      assert.ok((await bill.cover({ characters: 150, maxSeconds: 10 })).ok);
      assert.equal(await balanceOf(accountId), 1000 - tokensFor(150));
      await bill.end(0);
      assert.equal(await balanceOf(accountId), 1000);
    });

    it('gives it back when the first frame was not delivered, and keeps it when it was', async () => {
      const lost = await paidAccount();
      const lostBill = billFor(lost);
      assert.ok((await lostBill.cover({ characters: 150, maxSeconds: 10 })).ok);
      lostBill.firstFrameHanded(Promise.resolve(false));
      await lostBill.end(0.2);
      assert.equal(await balanceOf(lost), 1000);

      const heard = await paidAccount();
      const heardBill = billFor(heard);
      assert.ok((await heardBill.cover({ characters: 150, maxSeconds: 10 })).ok);
      heardBill.firstFrameHanded(Promise.resolve(true));
      // A later frame's verdict does not change the first's.
      heardBill.firstFrameHanded(Promise.resolve(false));
      await heardBill.end(3.5);
      assert.equal(await balanceOf(heard), 1000 - tokensFor(150));
      const ledger = await billing.listLedger(heard, { limit: 10 });
      assert.ok(ledger.ok);
      assert.equal(
        ledger.entries.find((e) => e.kind === 'charge')?.seconds,
        3.5,
        'the seconds sent, not the bound',
      );
    });

    it('waits for the first frame to settle, and judges once however often the context ends', async () => {
      const accountId = await paidAccount();
      const bill = billFor(accountId);
      assert.ok((await bill.cover({ characters: 150, maxSeconds: 10 })).ok);
      let settle: (delivered: boolean) => void = () => {};
      bill.firstFrameHanded(new Promise((resolve) => (settle = resolve)));
      const ended = bill.end(0.2);
      assert.equal(await balanceOf(accountId), 1000 - tokensFor(150), 'not before the frame settled');
      settle(false);
      await Promise.all([ended, bill.end(0.2)]);
      assert.equal(await balanceOf(accountId), 1000, 'given back once');
    });

    it('gives back a charge that committed after the context ended', async () => {
      const accountId = await paidAccount();
      const bill = billFor(accountId);
      const covering = bill.cover({ characters: 150, maxSeconds: 10 });
      await bill.end(0);
      assert.ok((await covering).ok);
      assert.equal(await balanceOf(accountId), 1000);
    });

    it('keeps later parts: a part is charged only after audio before it was sent', async () => {
      const accountId = await paidAccount();
      const bill = billFor(accountId);
      assert.ok((await bill.cover({ characters: 150, maxSeconds: 10 })).ok);
      assert.ok((await bill.cover({ characters: 150, maxSeconds: 10, sentBefore: 4 })).ok);
      bill.firstFrameHanded(Promise.resolve(false));
      await bill.end(6);
      assert.equal(await balanceOf(accountId), 1000 - tokensFor(300));
    });
  });

  it('under concurrency: no overdraft, no sixth free generation, no context above the price of its text', async () => {
    const accountId = await newAccount(300);
    const contexts = Array.from({ length: 24 }, (_, i) => ({
      bill: billFor(accountId),
      parts: [40 + i, 70, 90 - i, 55],
    }));
    const spoken = await Promise.all(
      contexts.map(async ({ bill, parts }) => {
        let characters = 0;
        for (const part of parts) {
          const result = await bill.cover({ characters: part, maxSeconds: part * 0.4 });
          if (!result.ok) break;
          characters += part;
        }
        return { bill, characters };
      }),
    );
    const balance = await billing.balance(accountId);
    assert.ok(balance.ok);
    assert.ok(balance.balance >= 0, 'no overdraft');
    assert.ok(balance.freeUsesRemaining >= 0);
    const ledger = await billing.listLedger(accountId, { limit: 1000 });
    assert.ok(ledger.ok);
    const charged = new Map<string, number>();
    for (const entry of ledger.entries) {
      if (entry.requestId === null) continue;
      const context = entry.requestId.split('.')[0] as string;
      charged.set(context, (charged.get(context) ?? 0) - entry.tokens);
    }
    const freeUsesHeld =
      ledger.entries.filter((e) => e.kind === 'free_use').length -
      ledger.entries.filter((e) => e.kind === 'free_use_refund').length;
    assert.ok(freeUsesHeld <= FREE_GENERATIONS);
    for (const { bill, characters } of spoken) {
      const summary = await bill.summary();
      const paid = summary?.tokens_charged ?? 0;
      assert.ok(
        paid <= (characters === 0 ? 0 : tokensFor(characters)),
        'never more than one stream request of its text',
      );
    }
    const total = ledger.entries.reduce((sum, e) => sum + e.tokens, 0);
    assert.equal(total, balance.balance, 'the balance is the sum of the ledger');
  });
});
