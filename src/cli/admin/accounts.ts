import { AccountService, type ApiKeyView } from '../../accounts/accounts.ts';
import { BillingService, MINIMUM_TOP_UP, TOKEN_PRICE_US_CENTS } from '../../accounts/billing.ts';
import { DictionaryService } from '../../accounts/dictionaries.ts';
import { withoutReversedCharges } from '../../accounts/ledger-view.ts';
import type { LexiconInput, LexiconResult } from '../../accounts/lexicons.ts';
import { TopUpRequestService } from '../../accounts/topup-requests.ts';
import type { Database } from '../../store/db/database.ts';
import { type Command, Refused, required, table, UsageError, wholeNumber } from './command-line.ts';

// The accounts tool: accounts, keys, the token ledger, customers' top-up requests and lexicons,
// all in the service's database.

/** The services the account commands run on, over the open database. */
export interface AccountTools {
  readonly accounts: AccountService;
  readonly billing: BillingService;
  readonly lexicons: DictionaryService;
  readonly topUps: TopUpRequestService;
}

/** The account services over `db`, as the service builds them (without metrics). */
export function accountTools(db: Database): AccountTools {
  const billing = new BillingService(db);
  return {
    accounts: new AccountService(db),
    billing,
    lexicons: new DictionaryService(db.dictionaries),
    topUps: new TopUpRequestService(db.topUpRequests, billing),
  };
}

type AccountCommand = Command<AccountTools>;

/** A command that reads one account's things: `--account` and what it does with it. */
function ofAccount(
  name: string,
  usage: AccountCommand['usage'],
  run: (tools: AccountTools, accountId: string) => Promise<string>,
): AccountCommand {
  return {
    name,
    usage,
    parse: (values) => {
      const accountId = required(values, 'account');
      return (tools) => run(tools, accountId);
    },
  };
}

/** Every command of the accounts tool, in the order the usage lists them. */
export const accountCommands: readonly AccountCommand[] = [
  {
    name: 'account create',
    usage: [['--name NAME [--email EMAIL]']],
    parse: (values) => {
      const name = required(values, 'name');
      const email = values.email ?? null;
      return async ({ accounts }) => {
        const result = await accounts.createAccount({ name, email });
        if (!result.ok) throw new Refused(result.message);
        const a = result.account;
        return `account: ${a.id}\nname: ${a.name}\nemail: ${a.email ?? '-'}\ncreated: ${a.createdAt}`;
      };
    },
  },
  {
    name: 'key create',
    usage: [['--account ACCOUNT_ID [--name NAME]', 'prints the new key, once']],
    parse: (values) => {
      const accountId = required(values, 'account');
      const name = values.name ?? null;
      return async ({ accounts }) => {
        const result = await accounts.createKey(accountId, { name });
        if (!result.ok) {
          throw new Refused(result.code === 'account_not_found' ? `no account ${accountId}` : result.message);
        }
        process.stderr.write(
          'WARNING: this is the only time the key is shown. Give it to its owner now over a\n' +
            'secure channel; it cannot be recovered, only revoked and replaced.\n',
        );
        return `id: ${result.record.id}\naccount: ${accountId}\nhint: ${result.record.hint}\nkey: ${result.key}`;
      };
    },
  },
  ofAccount('key list', [['--account ACCOUNT_ID']], async ({ accounts }, accountId) => {
    const result = await accounts.listKeys(accountId);
    if (!result.ok) throw new Refused(`no account ${accountId}`);
    if (result.keys.length === 0) return `no keys for ${accountId}`;
    return table(['id', 'name', 'hint', 'created', 'last used', 'revoked'], result.keys.map(keyRow));
  }),
  {
    name: 'key revoke',
    usage: [['--key KEY_ID']],
    parse: (values) => {
      const keyId = required(values, 'key');
      return async ({ accounts }) => {
        const result = await accounts.revokeKey(keyId);
        if (!result.ok) {
          throw new Refused(
            result.code === 'key_not_found' ? `no key ${keyId}` : `key ${keyId} is already revoked`,
          );
        }
        return `revoked: ${result.key.id}\nrevoked at: ${result.key.revokedAt ?? '-'}`;
      };
    },
  },
  {
    name: 'topup',
    usage: [['--account ACCOUNT_ID --tokens N', `at least ${MINIMUM_TOP_UP} tokens`]],
    parse: (values) => {
      const accountId = required(values, 'account');
      const tokens = wholeNumber(required(values, 'tokens'), 'tokens');
      return async ({ billing }) => {
        const result = await billing.topUp(accountId, tokens);
        if (!result.ok) {
          if (result.code === 'top_up_below_minimum') {
            throw new Refused(`a top-up must be at least ${result.minimumTopUp} tokens, got ${tokens}`);
          }
          throw new Refused(result.code === 'account_not_found' ? `no account ${accountId}` : result.message);
        }
        return `topped up: ${tokens}\nledger entry: ${result.entry.id}\nbalance: ${result.balance}`;
      };
    },
  },
  ofAccount('balance', [['--account ACCOUNT_ID']], async ({ billing }, accountId) => {
    const result = await billing.balance(accountId);
    if (!result.ok) throw new Refused(`no account ${accountId}`);
    return `balance: ${result.balance}\nfree generations left: ${result.freeUsesRemaining}`;
  }),
  {
    name: 'ledger',
    usage: [['--account ACCOUNT_ID [--limit N]', 'newest first, 50 by default']],
    parse: (values) => {
      const accountId = required(values, 'account');
      const limit = values.limit === undefined ? 50 : wholeNumber(values.limit, 'limit');
      return async ({ billing }) => {
        const result = await billing.listLedger(accountId, { limit });
        if (!result.ok) throw new Refused(`no account ${accountId}`);
        const entries = withoutReversedCharges(result.entries);
        if (entries.length === 0) return `no ledger entries for ${accountId}`;
        return table(
          ['seq', 'created', 'kind', 'tokens', 'chars', 'language', 'seconds', 'request'],
          entries.map((e) => [
            String(e.seq),
            e.createdAt,
            e.kind,
            e.tokens > 0 ? `+${e.tokens}` : String(e.tokens),
            e.characters === null ? '-' : String(e.characters),
            e.language ?? '-',
            e.seconds === null ? '-' : e.seconds.toFixed(2),
            e.requestId ?? '-',
          ]),
        );
      };
    },
  },
  {
    name: 'topup-requests',
    usage: [['', "customers' requests to buy tokens, waiting for payment"]],
    parse:
      () =>
      async ({ topUps }) => {
        const pending = await topUps.listPending();
        if (pending.length === 0) return 'no top-up requests waiting';
        return table(
          ['request', 'reference', 'account', 'tokens', 'price', 'asked'],
          pending.map((r) => [
            r.id,
            r.reference,
            r.accountId,
            String(r.tokens),
            `${((r.tokens * TOKEN_PRICE_US_CENTS) / 100).toFixed(2)} USD`,
            r.createdAt,
          ]),
        );
      },
  },
  {
    name: 'topup-requests approve',
    usage: [['--request REQUEST_ID', 'credits the tokens, once, as a top-up']],
    parse: (values) => {
      const requestId = required(values, 'request');
      return async ({ topUps }) => {
        const result = await topUps.approve(requestId);
        if (!result.ok) throw new Refused(result.message);
        return `approved ${result.request.reference}: ${result.request.tokens} tokens credited\nbalance: ${result.balance}`;
      };
    },
  },
  {
    name: 'topup-requests decline',
    usage: [['--request REQUEST_ID']],
    parse: (values) => {
      const requestId = required(values, 'request');
      return async ({ topUps }) => {
        const result = await topUps.decline(requestId);
        if (!result.ok) throw new Refused(result.message);
        return `declined ${result.request.reference}`;
      };
    },
  },
  ofAccount('lexicon list', [['--account ACCOUNT_ID']], async ({ lexicons }, accountId) => {
    const entries = await lexicons.list(accountId);
    if (entries.length === 0) return `no lexicon entries for ${accountId}`;
    return table(
      ['entry', 'language', 'phrase', 'kind', 'says', 'word language'],
      entries.map((e) => [e.id, e.language, e.phrase, e.kind, e.says, e.wordLanguage ?? '-']),
    );
  }),
  {
    name: 'lexicon add',
    usage: [
      ['--account ACCOUNT_ID --language rw|en|fr --phrase TEXT (--respelling TEXT | --ipa IPA)'],
      ['  [--word-language rw|en|fr]', 'a respelling said as a word of that language'],
    ],
    parse: (values) => {
      if ((values.respelling === undefined) === (values.ipa === undefined))
        throw new UsageError('give one of --respelling or --ipa');
      const input: LexiconInput = {
        language: required(values, 'language'),
        phrase: required(values, 'phrase'),
        kind: values.ipa === undefined ? 'respelling' : 'ipa',
        says: values.ipa ?? values.respelling ?? '',
        wordLanguage: values['word-language'],
      };
      const accountId = required(values, 'account');
      return async ({ lexicons }) => {
        const result = await lexicons.add(accountId, input);
        if (!result.ok) throw new Refused(lexiconRefusal(result, accountId));
        return `added "${input.phrase}" (${input.language})`;
      };
    },
  },
  {
    name: 'lexicon remove',
    usage: [['--account ACCOUNT_ID --entry ENTRY_ID']],
    parse: (values) => {
      const accountId = required(values, 'account');
      const entryId = required(values, 'entry');
      return async ({ lexicons }) => {
        const result = await lexicons.remove(accountId, entryId);
        if (!result.ok) throw new Refused(lexiconRefusal(result, accountId));
        return `removed ${entryId}`;
      };
    },
  },
];

function keyRow(k: ApiKeyView): string[] {
  return [k.id, k.name ?? '-', k.hint, k.createdAt, k.lastUsedAt ?? '-', k.revokedAt ?? '-'];
}

/** The option that gave each field of a lexicon entry. */
const LEXICON_OPTIONS: Readonly<Record<keyof LexiconInput, string>> = {
  language: 'language',
  phrase: 'phrase',
  kind: 'respelling/--ipa',
  says: 'respelling/--ipa',
  wordLanguage: 'word-language',
};

function lexiconRefusal(result: Exclude<LexiconResult, { ok: true }>, accountId: string): string {
  if (result.code === 'invalid_entry') return `--${LEXICON_OPTIONS[result.field]}: ${result.message}`;
  if (result.code === 'not_found') return `no such entry, or no account ${accountId}`;
  return result.message;
}
