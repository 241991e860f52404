import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { AccountService } from '../../src/accounts/accounts.ts';
import { BillingService } from '../../src/accounts/billing.ts';
import { TopUpRequestService } from '../../src/accounts/topup-requests.ts';
import { describeEachDatabase } from '../helpers/databases.ts';

// Buying tokens without a payment provider: a request, a reference, and an operator's decision
// that credits the tokens through the ledger exactly once, whatever runs at the same time.

describeEachDatabase('top-up requests', (context) => {
  let requests: TopUpRequestService;
  let billing: BillingService;
  let accounts: AccountService;

  before(() => {
    billing = new BillingService(context.db);
    requests = new TopUpRequestService(context.db.topUpRequests, billing);
    accounts = new AccountService(context.db);
  });

  async function newAccount(): Promise<string> {
    const result = await accounts.createAccount({ name: 'Top-up Test' });
    assert.ok(result.ok);
    return result.account.id;
  }

  const balanceOf = async (accountId: string) => {
    const result = await billing.balance(accountId);
    assert.ok(result.ok);
    return result.balance;
  };

  it('takes a request of at least 289 tokens with a readable reference, and lists it', async () => {
    const accountId = await newAccount();
    for (const tokens of [0, 288, 1.5, 1_000_001]) {
      const refused = await requests.request(accountId, tokens);
      assert.ok(!refused.ok && refused.code === 'invalid_tokens', String(tokens));
    }
    const made = await requests.request(accountId, 300);
    assert.ok(made.ok);
    assert.match(made.request.reference, /^IJW-[A-HJ-NP-Z2-9]{8}$/);
    assert.deepEqual(
      (await requests.listForAccount(accountId)).map((r) => [r.tokens, r.status]),
      [[300, 'pending']],
    );
    assert.ok((await requests.listPending()).some((r) => r.id === made.request.id));
    assert.equal((await requests.request('acct_nobody', 300)).ok, false);
  });

  it('credits an approved request once, however many approvals run at once', async () => {
    const accountId = await newAccount();
    const made = await requests.request(accountId, 500);
    assert.ok(made.ok);
    const results = await Promise.all(Array.from({ length: 12 }, () => requests.approve(made.request.id)));
    assert.ok(results.every((r) => r.ok));
    assert.equal(await balanceOf(accountId), 500);
    assert.equal((await requests.approve(made.request.id)).ok, true, 'approving again changes nothing');
    assert.equal(await balanceOf(accountId), 500);
    const [request] = await requests.listForAccount(accountId);
    assert.equal(request?.status, 'approved');
    assert.ok(request?.decidedAt);
  });

  it('never credits a declined request, even when an approval races the decline', async () => {
    const accountId = await newAccount();
    const made = await requests.request(accountId, 400);
    assert.ok(made.ok);
    const [declined, approved] = await Promise.all([
      requests.decline(made.request.id),
      requests.approve(made.request.id),
    ]);
    assert.ok(declined.ok !== approved.ok, 'exactly one decision wins');
    const status = (await requests.listForAccount(accountId))[0]?.status;
    assert.equal(await balanceOf(accountId), status === 'approved' ? 400 : 0);
    const again = await requests.decline(made.request.id);
    assert.ok(!again.ok && again.code === 'already_decided');
  });
});
