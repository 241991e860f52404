import { setTimeout } from 'node:timers/promises';
import { type BillingMetrics, noBillingMetrics } from './billing-metrics.ts';
import { newId } from './ids.ts';
import type {
  AccountRepository,
  DailyUsage,
  LedgerEntry,
  LedgerRepository,
  LedgerSummary,
  LockedLedger,
} from './repositories.ts';

/** The smallest top-up, in tokens (fixed by the contract; 0.04 USD per token). */
export const MINIMUM_TOP_UP = 289;
/** The price reference of one token, in US cents (fixed by the contract: 0.04 USD). */
export const TOKEN_PRICE_US_CENTS = 4;
/** Free generations each account starts with. */
export const FREE_GENERATIONS = 5;
/** A generation uses a free one only when its audio is shorter than this. */
export const FREE_MAX_SECONDS = 120;
/** Default charge rule: 1 token per started 100 characters. */
export const DEFAULT_CHARS_PER_TOKEN = 100;
// Guards against a mistyped operator top-up and keeps each entry inside a 32-bit SQL integer.
const MAX_TOP_UP = 1_000_000_000;
const MAX_LEDGER_PAGE = 1000;
/** How long `recordDuration` keeps trying through a store outage, and its first and longest pause. */
const RECORD_RETRY = { forMs: 60_000, firstPauseMs: 250, longestPauseMs: 4_000 } as const;

/** The `billing` object of a TTS response (field names fixed by the API contract). */
export interface BillingOutcome {
  readonly kinyarwanda_free: boolean;
  readonly api_usage: boolean;
  readonly tokens_charged: number;
  readonly token_balance: number;
  readonly free_uses_remaining: number;
}

/** One generation to bill. `studio` is true only for the signed-in web studio, never for the API. */
export interface ChargeRequest {
  /** From `tokensFor(input)`. */
  readonly tokens: number;
  /** Audio duration: exact for files, the conservative estimate for streams. */
  readonly seconds: number;
  /** Code points of the trimmed input, kept in the ledger for support questions. */
  readonly characters: number;
  readonly language: string;
  /** The request id (`req_...`); one request is charged at most once. */
  readonly requestId: string;
  readonly studio: boolean;
  /**
   * Parts of one generation billed as it goes (a live context): a later part never takes a free
   * generation of its own (`noFreeUse`), and the part that moves a generation from its free use
   * to tokens gives that free use back in the same transaction (`releasesFreeUseOf`, the request
   * id of the free use), so the generation is billed once, as tokens.
   */
  readonly noFreeUse?: boolean;
  readonly releasesFreeUseOf?: string;
}

/** 402 material: what the account has, what the request needs, and the smallest top-up. */
export interface InsufficientTokens {
  readonly ok: false;
  readonly code: 'insufficient_tokens';
  readonly balance: number;
  readonly needed: number;
  readonly minimumTopUp: typeof MINIMUM_TOP_UP;
}

export interface AccountNotFound {
  readonly ok: false;
  readonly code: 'account_not_found';
}

export type CommitChargeResult =
  | { readonly ok: true; readonly billing: BillingOutcome; readonly entry: LedgerEntry | null }
  | InsufficientTokens
  | AccountNotFound
  | { readonly ok: false; readonly code: 'duplicate_request' };

export type PrecheckResult =
  | {
      readonly ok: true;
      /** How the request would be billed if committed now. */
      readonly via: 'studio_free' | 'free_use' | 'tokens';
      readonly balance: number;
      readonly freeUsesRemaining: number;
    }
  | InsufficientTokens
  | AccountNotFound;

export type TopUpResult =
  | { readonly ok: true; readonly entry: LedgerEntry; readonly balance: number }
  | {
      readonly ok: false;
      readonly code: 'top_up_below_minimum';
      readonly minimumTopUp: typeof MINIMUM_TOP_UP;
    }
  | { readonly ok: false; readonly code: 'invalid_tokens'; readonly message: string }
  | AccountNotFound;

export type RefundResult =
  | {
      readonly ok: true;
      /** The refund entry: written by this call, or by an earlier one (`alreadyRefunded`). */
      readonly entry: LedgerEntry;
      readonly alreadyRefunded: boolean;
      readonly balance: number;
      readonly freeUsesRemaining: number;
    }
  | { readonly ok: false; readonly code: 'not_charged' }
  | AccountNotFound;

export type BalanceResult =
  | { readonly ok: true; readonly balance: number; readonly freeUsesRemaining: number }
  | AccountNotFound;

export type LedgerListResult =
  | { readonly ok: true; readonly entries: readonly LedgerEntry[] }
  | AccountNotFound;

/**
 * Tokens for a request that speaks `characters` characters (Unicode code points of the trimmed
 * input for plain text, of the spoken text for SSML): 1 per started `charsPerToken`, at least 1
 * (so 1-100 cost 1 token, 101 cost 2). Throws a RangeError for a `charsPerToken` that is not a
 * positive integer: that is a configuration bug, not a request failure.
 */
export function tokensFor(characters: number, charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): number {
  if (!Number.isSafeInteger(charsPerToken) || charsPerToken < 1) {
    throw new RangeError(`charsPerToken must be a positive integer, got ${charsPerToken}`);
  }
  return Math.max(1, Math.ceil(characters / charsPerToken));
}

type Decision = 'studio_free' | 'free_use' | 'tokens' | 'insufficient';

// The one place the billing rules live; precheck and commit both call it, so they cannot drift.
function decide(
  summary: LedgerSummary,
  request: { tokens: number; seconds: number; studio: boolean; language: string; noFreeUse?: boolean },
): Decision {
  if (request.studio && request.language === 'rw') return 'studio_free';
  const freeUse = !request.noFreeUse && summary.freeUses < FREE_GENERATIONS;
  if (freeUse && request.seconds < FREE_MAX_SECONDS) return 'free_use';
  return summary.balance >= request.tokens ? 'tokens' : 'insufficient';
}

function freeUsesRemaining(summary: LedgerSummary): number {
  return Math.max(0, FREE_GENERATIONS - summary.freeUses);
}

function insufficient(balance: number, needed: number): InsufficientTokens {
  return { ok: false, code: 'insufficient_tokens', balance, needed, minimumTopUp: MINIMUM_TOP_UP };
}

function checkTokens(tokens: number): void {
  if (!Number.isSafeInteger(tokens) || tokens < 1) {
    throw new RangeError(`tokens must be a positive integer, got ${tokens}`);
  }
}

function checkSeconds(seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`seconds must be a finite number >= 0, got ${seconds}`);
  }
}

/** What the billing service needs: the account and ledger repositories and, for tests, a clock. */
export interface BillingServiceDeps {
  readonly accounts: AccountRepository;
  readonly ledger: LedgerRepository;
  readonly now?: () => Date;
  /** Where committed charges, refunds and payment refusals are counted; nowhere by default. */
  readonly metrics?: BillingMetrics;
}

/**
 * Free trial, token charges, studio Kinyarwanda and top-ups over the ledger. The balance is always
 * the sum of the ledger. Arguments that no valid request can produce (a token count below 1, a
 * negative duration) throw RangeError; every failure a customer can cause is a returned value.
 */
export class BillingService {
  readonly #accounts: AccountRepository;
  readonly #ledger: LedgerRepository;
  readonly #now: () => Date;
  readonly #metrics: BillingMetrics;

  constructor(deps: BillingServiceDeps) {
    this.#accounts = deps.accounts;
    this.#ledger = deps.ledger;
    this.#now = deps.now ?? (() => new Date());
    this.#metrics = deps.metrics ?? noBillingMetrics;
  }

  /**
   * A cheap, non-binding look at whether a request would be accepted, to refuse with 402 before
   * synthesising. It takes no lock, so a concurrent request may spend the tokens in between: only
   * `commitCharge` decides. `options` defaults to an API request (`studio: false`).
   */
  async precheck(
    accountId: string,
    tokens: number,
    seconds: number,
    options: { studio?: boolean; language?: string } = {},
  ): Promise<PrecheckResult> {
    checkTokens(tokens);
    checkSeconds(seconds);
    const summary = await this.#ledger.summary(accountId);
    if (summary === undefined) return { ok: false, code: 'account_not_found' };
    const via = decide(summary, {
      tokens,
      seconds,
      studio: options.studio ?? false,
      language: options.language ?? '',
    });
    if (via === 'insufficient') {
      this.#metrics.paymentRefused();
      return insufficient(summary.balance, tokens);
    }
    return { ok: true, via, balance: summary.balance, freeUsesRemaining: freeUsesRemaining(summary) };
  }

  /**
   * Bills one finished generation in a single transaction with the account locked: studio
   * Kinyarwanda is free and writes nothing; otherwise a free generation is used when one is left
   * and the audio is under 120 s; otherwise the tokens are charged if the balance covers them.
   * Returns the API's `billing` object and the ledger entry written, or `insufficient_tokens`
   * (nothing written). Concurrent calls for one account queue on the lock, so no interleaving can
   * overdraw the balance or use a sixth free generation. Call it only once the audio exists (the
   * file is written, or the first stream frame is ready): a failed request is never charged.
   */
  async commitCharge(accountId: string, request: ChargeRequest): Promise<CommitChargeResult> {
    checkTokens(request.tokens);
    checkSeconds(request.seconds);
    if (!Number.isSafeInteger(request.characters) || request.characters < 0) {
      throw new RangeError(`characters must be an integer >= 0, got ${request.characters}`);
    }
    if (request.requestId.length === 0) throw new RangeError('requestId must not be empty');

    if (request.studio && request.language === 'rw') {
      // Free and consumes nothing, so it needs no lock and leaves no ledger entry.
      const summary = await this.#ledger.summary(accountId);
      if (summary === undefined) return { ok: false, code: 'account_not_found' };
      this.#metrics.charged('studio_free', 0);
      return {
        ok: true,
        entry: null,
        billing: {
          kinyarwanda_free: true,
          api_usage: false,
          tokens_charged: 0,
          token_balance: summary.balance,
          free_uses_remaining: freeUsesRemaining(summary),
        },
      };
    }

    const locked = await this.#ledger.withAccountLock(
      accountId,
      async (ledger): Promise<CommitChargeResult> => {
        if (await ledger.hasRequest(request.requestId)) return { ok: false, code: 'duplicate_request' };
        const summary = await ledger.summary();
        const via = decide(summary, request);
        if (via === 'insufficient') return insufficient(summary.balance, request.tokens);
        const free = via === 'free_use';
        const entry = await ledger.append({
          id: newId('led'),
          kind: free ? 'free_use' : 'charge',
          tokens: free ? 0 : -request.tokens,
          characters: request.characters,
          language: request.language,
          seconds: request.seconds,
          requestId: request.requestId,
          createdAt: this.#now().toISOString(),
        });
        const released = !free && request.releasesFreeUseOf !== undefined;
        if (released) await this.#releaseFreeUse(ledger, request.releasesFreeUseOf);
        const after: LedgerSummary = {
          balance: summary.balance + entry.tokens,
          freeUses: summary.freeUses + (free ? 1 : 0) - (released ? 1 : 0),
        };
        return {
          ok: true,
          entry,
          billing: {
            kinyarwanda_free: false,
            api_usage: !request.studio,
            tokens_charged: free ? 0 : request.tokens,
            token_balance: after.balance,
            free_uses_remaining: freeUsesRemaining(after),
          },
        };
      },
      // A charge takes from the customer: its audio need not wait for the disk (AccountLockOptions).
      { beforeFlushed: true },
    );
    if (!locked.found) return { ok: false, code: 'account_not_found' };
    // Counted once the transaction has committed: a rolled-back charge never shows.
    const result = locked.value;
    if (result.ok && result.entry !== null)
      this.#metrics.charged(result.entry.kind === 'free_use' ? 'free_use' : 'charge', -result.entry.tokens);
    else if (!result.ok && result.code === 'insufficient_tokens') this.#metrics.paymentRefused();
    return result;
  }

  /**
   * Reverses the charge of request `requestId` on this account with one ledger entry, under the
   * same account lock as charges: `refund` gives its tokens back, `free_use_refund` its free
   * generation. Idempotent: once refunded, a call writes nothing and returns the existing refund
   * (`alreadyRefunded: true`). `not_charged` when the account holds no charge for that request
   * (studio Kinyarwanda writes none). For a stream whose client left before its first audio byte.
   */
  async refundCharge(accountId: string, requestId: string): Promise<RefundResult> {
    if (requestId.length === 0) throw new RangeError('requestId must not be empty');
    const locked = await this.#ledger.withAccountLock(accountId, async (ledger): Promise<RefundResult> => {
      const entries = await ledger.requestEntries(requestId);
      const charged = entries.find((e) => e.kind === 'charge' || e.kind === 'free_use');
      if (charged === undefined) return { ok: false, code: 'not_charged' };
      const before = await ledger.summary();
      const earlier = entries.find((e) => e.kind === 'refund' || e.kind === 'free_use_refund');
      if (earlier !== undefined) {
        return {
          ok: true,
          entry: earlier,
          alreadyRefunded: true,
          balance: before.balance,
          freeUsesRemaining: freeUsesRemaining(before),
        };
      }
      const free = charged.kind === 'free_use';
      const entry = await ledger.append({
        id: newId('led'),
        kind: free ? 'free_use_refund' : 'refund',
        tokens: free ? 0 : -charged.tokens,
        // What was spoken stays on the charge; the refund only gives back.
        characters: null,
        language: null,
        seconds: null,
        requestId,
        createdAt: this.#now().toISOString(),
      });
      const after: LedgerSummary = {
        balance: before.balance + entry.tokens,
        freeUses: before.freeUses - (free ? 1 : 0),
      };
      return {
        ok: true,
        entry,
        alreadyRefunded: false,
        balance: after.balance,
        freeUsesRemaining: freeUsesRemaining(after),
      };
    });
    if (!locked.found) return { ok: false, code: 'account_not_found' };
    const result = locked.value;
    if (result.ok && !result.alreadyRefunded)
      this.#metrics.refunded(
        result.entry.kind === 'free_use_refund' ? 'free_use_refund' : 'refund',
        result.entry.tokens,
      );
    return result;
  }

  /** Gives back the free generation used by request `requestId`, inside a caller's account lock. */
  async #releaseFreeUse(ledger: LockedLedger, requestId: string): Promise<void> {
    const entries = await ledger.requestEntries(requestId);
    if (!entries.some((e) => e.kind === 'free_use') || entries.some((e) => e.kind === 'free_use_refund'))
      throw new Error(`request ${requestId} holds no free use to release`);
    await ledger.append({
      id: newId('led'),
      kind: 'free_use_refund',
      tokens: 0,
      characters: null,
      language: null,
      seconds: null,
      requestId,
      createdAt: this.#now().toISOString(),
    });
  }

  /**
   * Credits tokens to an account (operator top-up) as one ledger entry. Refuses fewer than 289
   * tokens (`top_up_below_minimum`), and non-integers or more than a billion (`invalid_tokens`).
   * With `requestId` (a customer's top-up request) it credits that request at most once: a second
   * call, concurrent or later, writes nothing and returns the entry already written.
   */
  async topUp(accountId: string, tokens: number, options: { requestId?: string } = {}): Promise<TopUpResult> {
    if (!Number.isSafeInteger(tokens) || tokens > MAX_TOP_UP) {
      return {
        ok: false,
        code: 'invalid_tokens',
        message: `tokens must be a whole number up to ${MAX_TOP_UP}`,
      };
    }
    if (tokens < MINIMUM_TOP_UP)
      return { ok: false, code: 'top_up_below_minimum', minimumTopUp: MINIMUM_TOP_UP };
    const requestId = options.requestId ?? null;
    const locked = await this.#ledger.withAccountLock(accountId, async (ledger) => {
      const before = await ledger.summary();
      if (requestId !== null) {
        const credited = (await ledger.requestEntries(requestId)).find((e) => e.kind === 'top_up');
        if (credited) return { ok: true, entry: credited, balance: before.balance } as const;
      }
      const entry = await ledger.append({
        id: newId('led'),
        kind: 'top_up',
        tokens,
        characters: null,
        language: null,
        seconds: null,
        requestId,
        createdAt: this.#now().toISOString(),
      });
      return { ok: true, entry, balance: before.balance + tokens } as const;
    });
    return locked.found ? locked.value : { ok: false, code: 'account_not_found' };
  }

  /**
   * Records the real duration of a stream's audio on its ledger entry, once the stream has ended:
   * the charge was decided on the conservative estimate, and the ledger should say what was heard.
   * A failure is tried again, with growing pauses, for up to `RECORD_RETRY.forMs`: a stream that
   * ends while the database restarts would otherwise keep the estimate as its seconds for good.
   * Setting the seconds again is harmless, so a retry after an update that did land changes nothing.
   */
  async recordDuration(accountId: string, requestId: string, seconds: number): Promise<boolean> {
    checkSeconds(seconds);
    const giveUpAt = performance.now() + RECORD_RETRY.forMs;
    let pauseMs: number = RECORD_RETRY.firstPauseMs;
    for (;;) {
      try {
        return await this.#ledger.recordSeconds(accountId, requestId, seconds);
      } catch (error) {
        if (performance.now() + pauseMs > giveUpAt) throw error;
        await setTimeout(pauseMs);
        pauseMs = Math.min(pauseMs * 2, RECORD_RETRY.longestPauseMs);
      }
    }
  }

  /** The account's balance (the sum of its ledger) and free generations left. */
  async balance(accountId: string): Promise<BalanceResult> {
    const summary = await this.#ledger.summary(accountId);
    if (summary === undefined) return { ok: false, code: 'account_not_found' };
    return { ok: true, balance: summary.balance, freeUsesRemaining: freeUsesRemaining(summary) };
  }

  /**
   * The account's ledger, newest first, `limit` entries (default 50, at most 1000); pass the
   * last entry's `seq` as `beforeSeq` for the next page.
   */
  async listLedger(
    accountId: string,
    options: { limit?: number; beforeSeq?: number } = {},
  ): Promise<LedgerListResult> {
    if ((await this.#accounts.find(accountId)) === undefined) return { ok: false, code: 'account_not_found' };
    const limit = Math.min(MAX_LEDGER_PAGE, Math.max(1, Math.trunc(options.limit ?? 50)));
    const query = options.beforeSeq === undefined ? { limit } : { limit, beforeSeq: options.beforeSeq };
    return { ok: true, entries: await this.#ledger.list(accountId, query) };
  }

  /**
   * The account's use on each UTC day since `since` (ISO), by spoken language: tokens charged
   * (less refunds) and seconds of audio. Days without use have no rows.
   */
  async dailyUsage(accountId: string, since: string): Promise<DailyUsage[]> {
    return this.#ledger.dailyUsage(accountId, since);
  }
}
