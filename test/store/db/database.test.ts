import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { BillingService } from '../../../src/accounts/billing.ts';
import { DictionaryService } from '../../../src/accounts/dictionaries.ts';
import type { LedgerKind } from '../../../src/accounts/repositories.ts';
import type { DatabaseSource } from '../../../src/store/db/database.ts';
import { migrationNames } from '../../../src/store/db/migrations.ts';
import { openDatabase } from '../../../src/store/db/open-database.ts';
import { describeEachDatabase } from '../../helpers/databases.ts';

// The store contract at the database level, on every database: migrations, health, the ledger's
// schema rules, and billing atomicity across processes ("on one instance or many").

const run = promisify(execFile);
const storeUrl = new URL('../../../src/store/db/open-database.ts', import.meta.url).href;
const billingUrl = new URL('../../../src/accounts/billing.ts', import.meta.url).href;

const account = {
  id: 'acct_store0000000000001',
  name: 'Store Test',
  email: null,
  createdAt: '2025-01-01T00:00:00.000Z',
};

/** Runs `code` in `count` fresh Node processes with `args`, and resolves with their outputs. */
async function inProcesses(
  count: number,
  code: string,
  args: (index: number) => string[],
): Promise<string[]> {
  const outputs = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, ...args(i)], {
        timeout: 60_000,
      }),
    ),
  );
  return outputs.map((o) => o.stdout);
}

describeEachDatabase('database', (context) => {
  describe('openDatabase', () => {
    it('keeps data across a reopen and migrates only once', async () => {
      const source = await context.fresh();
      const first = await openDatabase(source);
      await first.accounts.insert(account);
      await first.close();
      const second = await openDatabase(source);
      try {
        assert.deepEqual(await second.accounts.find(account.id), account);
        const migrations = await sql<{
          name: string;
        }>`select name from kysely_migration order by name`.execute(second.kysely);
        assert.deepEqual(
          migrations.rows.map((r) => r.name),
          migrationNames,
        );
      } finally {
        await second.close();
      }
    });

    it('answers ping while open and says closed after close', async () => {
      const db = await openDatabase(await context.fresh());
      assert.equal(await db.ping(), true);
      await db.close();
      await db.close();
      assert.equal(await db.ping(), 'closed');
    });
  });

  describe('ledger schema', () => {
    it('refuses entries whose sign contradicts their kind, and entries of unknown accounts', async () => {
      const { db } = context;
      await db.accounts.insert(account);
      const base = {
        account_id: account.id,
        characters: null,
        language: null,
        seconds: null,
        request_id: null,
        created_at: '2025-01-01T00:00:00.000Z',
        balance_after: 300,
        free_uses_after: 0,
      };
      const insert = (row: {
        id: string;
        seq: number;
        kind: LedgerKind;
        tokens: number;
        request_id?: string | null;
        balance_after?: number;
        free_uses_after?: number;
      }) =>
        db.kysely
          .insertInto('ledger')
          .values({ ...base, ...row })
          .execute();
      // Each database words its errors its own way; both name the kind of constraint.
      await assert.rejects(insert({ id: 'led_1', seq: 1, kind: 'top_up', tokens: -300 }), /check/i);
      await assert.rejects(insert({ id: 'led_2', seq: 1, kind: 'charge', tokens: 5 }), /check/i);
      await assert.rejects(insert({ id: 'led_3', seq: 1, kind: 'free_use', tokens: -1 }), /check/i);
      // Running totals can never show an overdraft or a negative count of free uses.
      await assert.rejects(
        insert({ id: 'led_7', seq: 1, kind: 'charge', tokens: -1, balance_after: -1 }),
        /check/i,
      );
      await assert.rejects(
        insert({ id: 'led_8', seq: 1, kind: 'top_up', tokens: 300, free_uses_after: -1 }),
        /check/i,
      );
      // A refund gives back, and names the request it reverses.
      await assert.rejects(
        insert({ id: 'led_9', seq: 1, kind: 'refund', tokens: -1, request_id: 'req_x' }),
        /check/i,
      );
      await assert.rejects(insert({ id: 'led_10', seq: 1, kind: 'refund', tokens: 1 }), /check/i);
      await assert.rejects(
        insert({ id: 'led_11', seq: 1, kind: 'free_use_refund', tokens: 1, request_id: 'req_x' }),
        /check/i,
      );
      await insert({ id: 'led_4', seq: 1, kind: 'top_up', tokens: 300 });
      await assert.rejects(insert({ id: 'led_5', seq: 1, kind: 'charge', tokens: -1 }), /unique/i);
      // One charge and one refund per request, whatever their kinds.
      await insert({ id: 'led_12', seq: 2, kind: 'charge', tokens: -1, request_id: 'req_once' });
      await assert.rejects(
        insert({ id: 'led_13', seq: 3, kind: 'free_use', tokens: 0, request_id: 'req_once' }),
        /unique/i,
      );
      await insert({ id: 'led_14', seq: 3, kind: 'refund', tokens: 1, request_id: 'req_once' });
      await assert.rejects(
        insert({ id: 'led_15', seq: 4, kind: 'free_use_refund', tokens: 0, request_id: 'req_once' }),
        /unique/i,
      );
      await assert.rejects(
        db.kysely
          .insertInto('ledger')
          .values({ ...base, account_id: 'acct_nobody', id: 'led_6', seq: 1, kind: 'top_up', tokens: 300 })
          .execute(),
        /foreign key/i,
      );
    });
  });

  describe('migration 0003_ledger_running_totals', () => {
    it('gives entries written before it the running totals of their account, in seq order', async () => {
      const source = await context.fresh();
      const before = await openDatabase(source);
      // Back to the schema as 0002 left it, then entries as the code of that time wrote them:
      // two accounts interleaved, one written out of seq order.
      await sql`alter table ledger drop column balance_after`.execute(before.kysely);
      await sql`alter table ledger drop column free_uses_after`.execute(before.kysely);
      // The migrations after it go too, so they run again on the entries below (as they would
      // on a database of that time).
      await sql`drop table pronunciation_entries`.execute(before.kysely);
      await sql`drop table pronunciation_dictionaries`.execute(before.kysely);
      await sql`drop table play_urls`.execute(before.kysely);
      await sql`drop table play_url_keys`.execute(before.kysely);
      await sql`drop table studio_audio`.execute(before.kysely);
      await sql`drop table topup_requests`.execute(before.kysely);
      await sql`drop index ledger_request_topped_up`.execute(before.kysely);
      await sql`drop table lexicon_entries`.execute(before.kysely);
      await sql`alter table accounts drop column lexicon_version`.execute(before.kysely);
      await sql`alter table users drop column language`.execute(before.kysely);
      await sql`delete from kysely_migration where name >= '0003'`.execute(before.kysely);
      const other = { ...account, id: 'acct_store0000000000002' };
      await before.accounts.insert(account);
      await before.accounts.insert(other);
      const old: [string, string, number, string, number][] = [
        ['led_a3', account.id, 3, 'charge', -29],
        ['led_b1', other.id, 1, 'free_use', 0],
        ['led_a1', account.id, 1, 'free_use', 0],
        ['led_b2', other.id, 2, 'top_up', 289],
        ['led_a2', account.id, 2, 'top_up', 300],
        ['led_a4', account.id, 4, 'free_use', 0],
        ['led_b3', other.id, 3, 'top_up', 1_000_000_000],
        ['led_b4', other.id, 4, 'top_up', 1_000_000_000],
        ['led_b5', other.id, 5, 'top_up', 1_000_000_000],
      ];
      for (const [id, accountId, seq, kind, tokens] of old) {
        await sql`insert into ledger (id, account_id, seq, kind, tokens, created_at)
          values (${id}, ${accountId}, ${seq}, ${kind}, ${tokens}, '2025-01-01T00:00:00.000Z')`.execute(
          before.kysely,
        );
      }
      await before.close();

      const db = await openDatabase(source);
      try {
        const rows = await db.kysely
          .selectFrom('ledger')
          .select(['id', 'balance_after', 'free_uses_after'])
          .orderBy('account_id')
          .orderBy('seq')
          .execute();
        assert.deepEqual(
          rows.map((r) => [r.id, Number(r.balance_after), Number(r.free_uses_after)]),
          [
            ['led_a1', 0, 1],
            ['led_a2', 300, 1],
            ['led_a3', 271, 1],
            ['led_a4', 271, 2],
            ['led_b1', 0, 1],
            ['led_b2', 289, 1],
            ['led_b3', 1_000_000_289, 1],
            ['led_b4', 2_000_000_289, 1],
            // Past a 32-bit integer: the balance column is 64-bit.
            ['led_b5', 3_000_000_289, 1],
          ],
        );
        assert.deepEqual(await db.ledger.summary(account.id), { balance: 271, freeUses: 2 });
        // New entries go on from the backfilled totals.
        const billing = new BillingService(db);
        const charged = await billing.commitCharge(account.id, {
          tokens: 21,
          seconds: 200,
          characters: 2100,
          language: 'en',
          requestId: 'req_after0003',
          studio: false,
        });
        assert.ok(charged.ok);
        assert.equal(charged.billing.token_balance, 250);
        assert.deepEqual(await db.ledger.summary(account.id), { balance: 250, freeUses: 2 });
        assert.deepEqual(await db.ledger.summary(other.id), { balance: 3_000_000_289, freeUses: 1 });
      } finally {
        await db.close();
      }
    });
  });

  describe('migration 0007_lexicon_word_language', () => {
    it('keeps the lexicon entries written before it, with no word language, and takes one after', async () => {
      const source = await context.fresh();
      const before = await openDatabase(source);
      await before.accounts.insert(account);
      // Back to the schema as 0006 left it, and an entry as the code of that time wrote it.
      await sql`alter table lexicon_entries drop column word_language`.execute(before.kysely);
      // The migrations after it go too, so they run again (as they would on a database of that time).
      await sql`alter table users drop column language`.execute(before.kysely);
      await sql`drop table play_urls`.execute(before.kysely);
      await sql`drop table play_url_keys`.execute(before.kysely);
      await sql`drop table studio_audio`.execute(before.kysely);
      await sql`drop table pronunciation_entries`.execute(before.kysely);
      await sql`drop table pronunciation_dictionaries`.execute(before.kysely);
      await sql`delete from kysely_migration where name >= '0007'`.execute(before.kysely);
      await sql`insert into lexicon_entries (id, account_id, language, phrase, phrase_key, kind, says, created_at, updated_at)
        values ('lex_old', ${account.id}, 'en', 'Uwase', 'uwase', 'respelling', 'oo wah seh',
          '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(before.kysely);
      await before.close();

      const db = await openDatabase(source);
      try {
        // Read as the code of today reads it: from the default dictionary migration 0010 made.
        const dictionaries = new DictionaryService(db.dictionaries);
        const [old] = await dictionaries.list(account.id);
        assert.equal(old?.says, 'oo wah seh');
        assert.equal(old?.wordLanguage, null);
        assert.ok(
          (
            await dictionaries.add(account.id, {
              language: 'en',
              phrase: 'Gisozi',
              kind: 'respelling',
              says: 'Gisozi',
              wordLanguage: 'rw',
            })
          ).ok,
        );
        assert.equal((await dictionaries.list(account.id))[1]?.wordLanguage, 'rw');
        await assert.rejects(
          sql`update pronunciation_entries set word_language = 'sw' where phrase = 'Gisozi'`.execute(
            db.kysely,
          ),
          /check/i,
          'the column holds only the three languages',
        );
      } finally {
        await db.close();
      }
    });
  });

  describe('migration 0010_pronunciation_dictionaries', () => {
    it('makes each account’s lexicon its default dictionary, at the lexicon’s version', async () => {
      const source = await context.fresh();
      const before = await openDatabase(source);
      const other = { ...account, id: 'acct_store0000000000002' };
      await before.accounts.insert(account);
      await before.accounts.insert(other);
      // Back to the schema as 0009 left it, and a lexicon as the code of that time wrote it.
      await sql`drop table pronunciation_entries`.execute(before.kysely);
      await sql`drop table pronunciation_dictionaries`.execute(before.kysely);
      // The migrations after it go too, so they run again (as they would on a database of that time).
      await sql`drop table play_urls`.execute(before.kysely);
      await sql`drop table play_url_keys`.execute(before.kysely);
      await sql`delete from kysely_migration where name >= '0010'`.execute(before.kysely);
      for (const [id, phrase, kind, says, wordLanguage] of [
        ['lex_a', 'Uwase', 'respelling', 'oo wah seh', null],
        ['lex_b', 'Gisozi', 'respelling', 'Gisozi', 'rw'],
        ['lex_c', 'Nyanza', 'ipa', 'njanza', null],
      ]) {
        await sql`insert into lexicon_entries (id, account_id, language, phrase, phrase_key, kind, says,
            word_language, created_at, updated_at)
          values (${id}, ${account.id}, 'en', ${phrase}, ${phrase?.toLowerCase()}, ${kind}, ${says},
            ${wordLanguage}, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`.execute(before.kysely);
      }
      await sql`update accounts set lexicon_version = 7 where id = ${account.id}`.execute(before.kysely);
      await before.close();

      const db = await openDatabase(source);
      try {
        const dictionaries = new DictionaryService(db.dictionaries);
        const [first, ...rest] = await dictionaries.dictionaries(account.id);
        assert.equal(rest.length, 0);
        assert.deepEqual(
          { id: first?.id, version: first?.version, entries: first?.entryCount, isDefault: first?.isDefault },
          { id: 'dict_store0000000000001', version: 7, entries: 3, isDefault: true },
        );
        // In the order of before: oldest first, then by id.
        assert.deepEqual(
          (await dictionaries.list(account.id)).map((e) => [e.id, e.phrase, e.kind, e.says, e.wordLanguage]),
          [
            ['lex_a', 'Uwase', 'respelling', 'oo wah seh', null],
            ['lex_b', 'Gisozi', 'respelling', 'Gisozi', 'rw'],
            ['lex_c', 'Nyanza', 'ipa', 'njanza', null],
          ],
        );
        const spoken = await dictionaries.lexiconFor(account.id, 'en');
        assert.ok(spoken.ok && spoken.lexicon.size === 3);
        // An account without a lexicon has an empty default dictionary, at version 0.
        const [empty] = await dictionaries.dictionaries(other.id);
        assert.deepEqual([empty?.version, empty?.entryCount], [0, 0]);
        assert.deepEqual(await dictionaries.list(other.id), []);
      } finally {
        await db.close();
      }
    });
  });

  describe('several processes on one database', () => {
    it('can all open a new database at the same moment (migrations run once, under a lock)', async () => {
      const source = await context.fresh();
      const startAt = Date.now() + 2000;
      const child = `
        const { openDatabase } = await import(${JSON.stringify(storeUrl)});
        await new Promise((r) => setTimeout(r, Math.max(0, ${startAt} - Date.now())));
        const db = await openDatabase(JSON.parse(process.argv[1]));
        process.stdout.write(String(await db.ping()));
        await db.close();`;
      const outputs = await inProcesses(3, child, () => [JSON.stringify(source)]);
      assert.deepEqual(outputs, ['true', 'true', 'true']);
    });

    // Playable URLs (calls/play-urls.ts) are signed and spoken by whichever instance a request reaches.
    it('agree on one play URL signing key, and give a URL’s first fetch to one of them', async () => {
      const source = await context.fresh();
      const db = await openDatabase(source);
      await db.accounts.insert(account);
      const created = await db.playUrls.create(
        {
          id: 'PlayUrlStoreTest000001',
          accountId: account.id,
          input: 'Hello.',
          reading: { language: 'en', speaker_id: 0, text_type: 'text' },
          format: 'wav',
          state: 'new',
          fileId: null,
          claimedAt: null,
          createdAt: new Date().toISOString(),
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
        10,
        new Date().toISOString(),
      );
      assert.equal(created, 'created');
      await db.close();
      const signerUrl = new URL('../../../src/calls/play-url-signer.ts', import.meta.url).href;
      const startAt = Date.now() + 2000;
      const child = `
        const { openDatabase } = await import(${JSON.stringify(storeUrl)});
        const { freshPlayUrlKey } = await import(${JSON.stringify(signerUrl)});
        const db = await openDatabase(JSON.parse(process.argv[1]));
        await new Promise((r) => setTimeout(r, Math.max(0, ${startAt} - Date.now())));
        const [key, claimed] = await Promise.all([
          db.playUrls.signingKey(freshPlayUrlKey(), new Date().toISOString()),
          db.playUrls.claim('PlayUrlStoreTest000001', new Date().toISOString()),
        ]);
        await db.close();
        process.stdout.write(JSON.stringify({ key, claimed }));`;
      const outputs = (await inProcesses(3, child, () => [JSON.stringify(source)])).map(
        (out) => JSON.parse(out) as { key: { id: string; secret: string }; claimed: boolean },
      );
      assert.equal(new Set(outputs.map((o) => `${o.key.id}/${o.key.secret}`)).size, 1, 'one key');
      assert.equal(outputs.filter((o) => o.claimed).length, 1, 'one first fetch');
    });

    // Two service instances sharing the database (the contract: "on one instance or many").
    it('never overdraw: 2 x 100 concurrent charges against a balance for 10', async () => {
      const source: DatabaseSource = await context.fresh();
      const db = await openDatabase(source);
      const billing = new BillingService(db);
      await db.accounts.insert(account);
      for (let i = 0; i < 5; i++) {
        const free = await billing.commitCharge(account.id, {
          tokens: 1,
          seconds: 1,
          characters: 10,
          language: 'en',
          requestId: `req_free${i}`,
          studio: false,
        });
        assert.ok(free.ok);
      }
      assert.ok((await billing.topUp(account.id, 290)).ok);
      await db.close();

      // Both children start charging at the same wall-clock instant, after their start-up.
      const startAt = Date.now() + 2500;
      const child = `
        const { openDatabase } = await import(${JSON.stringify(storeUrl)});
        const { BillingService } = await import(${JSON.stringify(billingUrl)});
        const [source, accountId, tag, startAt] = process.argv.slice(1);
        const db = await openDatabase(JSON.parse(source));
        const billing = new BillingService(db);
        await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
        const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
          billing.commitCharge(accountId, { tokens: 29, seconds: 5, characters: 2900, language: 'en',
            requestId: 'req_' + tag + i, studio: false })
            .then((r) => (r.ok ? 'ok' : r.code), (e) => 'error ' + e.message)));
        await db.close();
        process.stdout.write(JSON.stringify(results));`;
      const outputs = await inProcesses(2, child, (i) => [
        JSON.stringify(source),
        account.id,
        i === 0 ? 'a' : 'b',
        String(startAt),
      ]);
      const results = outputs.flatMap((o) => JSON.parse(o) as string[]);
      const counts = new Map<string, number>();
      for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
      assert.deepEqual(Object.fromEntries(counts), { ok: 10, insufficient_tokens: 190 });

      const check = await openDatabase(source);
      try {
        const sum = await sql<{ total: number }>`select sum(tokens) as total from ledger`.execute(
          check.kysely,
        );
        assert.equal(Number(sum.rows[0]?.total), 0);
        // The running totals the processes wrote agree with the sum.
        assert.deepEqual(await check.ledger.summary(account.id), { balance: 0, freeUses: 5 });
      } finally {
        await check.close();
      }
    });
  });
});
