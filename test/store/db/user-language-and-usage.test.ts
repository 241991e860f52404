import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { NewLedgerEntry } from '../../../src/accounts/repositories.ts';
import { webRepositories } from '../../../src/store/db/web-repositories.ts';
import { describeEachDatabase } from '../../helpers/databases.ts';

// Migration 0008 (a user's website language) and the ledger's daily sums that the dashboard's
// chart draws, on every database.

const at = (day: string) => `${day}T10:00:00.000Z`;

describeEachDatabase('user language and daily usage', (context) => {
  it('keeps no language for a new user, then the one chosen, and sessions carry it', async () => {
    const { users, sessions } = webRepositories(context.db.kysely);
    const account = {
      id: 'acct_lang_1',
      name: 'Ivuriro',
      email: 'lang@example.org',
      createdAt: at('2025-01-01'),
    };
    const user = {
      id: 'usr_lang_1',
      accountId: account.id,
      email: account.email,
      passwordHash: 'scrypt$test',
      createdAt: account.createdAt,
      language: null,
    };
    assert.equal(await users.createWithAccount(account, user), 'created');
    assert.equal((await users.findByEmail(user.email))?.language, null);
    assert.equal(await users.setLanguage(user.id, 'rw'), true);
    assert.equal((await users.findByEmail(user.email))?.language, 'rw');
    assert.equal(await users.setLanguage('usr_nobody', 'fr'), false, 'no such user');
    await sessions.insert({
      tokenHash: 'hash_lang_1',
      userId: user.id,
      csrfToken: 'csrf',
      createdAt: at('2025-01-01'),
      expiresAt: at('2099-01-01'),
    });
    assert.equal((await sessions.find('hash_lang_1'))?.user.language, 'rw');
  });

  it('sums charges not refunded, and their seconds, per UTC day and language since a time; top-ups are not use', async () => {
    const { db } = context;
    const accountId = 'acct_usage_1';
    await db.accounts.insert({ id: accountId, name: 'Usage', email: null, createdAt: at('2025-01-01') });
    let n = 0;
    const entry = (day: string, rest: Partial<NewLedgerEntry> & Pick<NewLedgerEntry, 'kind' | 'tokens'>) => ({
      id: `led_usage_${++n}`,
      characters: null,
      language: null,
      seconds: null,
      requestId: null,
      createdAt: at(day),
      ...rest,
    });
    const entries: NewLedgerEntry[] = [
      entry('2025-03-01', { kind: 'top_up', tokens: 500 }),
      entry('2025-03-01', { kind: 'charge', tokens: -7, language: 'en', seconds: 30, requestId: 'req_u0' }),
      entry('2025-03-02', { kind: 'charge', tokens: -3, language: 'en', seconds: 12.5, requestId: 'req_u1' }),
      entry('2025-03-02', { kind: 'charge', tokens: -2, language: 'en', seconds: 8, requestId: 'req_u2' }),
      entry('2025-03-02', {
        kind: 'free_use',
        tokens: 0,
        language: 'rw',
        seconds: 4.25,
        requestId: 'req_u3',
      }),
      entry('2025-03-02', { kind: 'top_up', tokens: 289 }),
      entry('2025-03-05', { kind: 'charge', tokens: -5, language: 'fr', seconds: 20, requestId: 'req_u4' }),
      entry('2025-03-05', { kind: 'refund', tokens: 5, language: 'fr', requestId: 'req_u4' }),
      entry('2025-03-05', { kind: 'charge', tokens: -4, language: 'fr', seconds: 9, requestId: 'req_u5' }),
    ];
    const written = await db.ledger.withAccountLock(accountId, async (ledger) => {
      for (const e of entries) await ledger.append(e);
    });
    assert.equal(written.found, true);
    const rows = await db.ledger.dailyUsage(accountId, at('2025-03-02').slice(0, 10));
    const sorted = [...rows].sort((a, b) => `${a.day}${a.language}`.localeCompare(`${b.day}${b.language}`));
    assert.deepEqual(sorted, [
      { day: '2025-03-02', language: 'en', tokens: 5, seconds: 20.5 },
      { day: '2025-03-02', language: 'rw', tokens: 0, seconds: 4.25 },
      // req_u4 was refunded: neither its tokens nor its seconds are use.
      { day: '2025-03-05', language: 'fr', tokens: 4, seconds: 9 },
    ]);
    assert.deepEqual(await db.ledger.dailyUsage('acct_nobody', at('2025-01-01')), []);
  });
});
