import { randomBytes } from 'node:crypto';
import { type BillingService, MINIMUM_TOP_UP } from './billing.ts';
import { newId } from './ids.ts';

/** Tokens one request may ask for: from the minimum top-up to a million (40,000 USD). */
export const MAX_REQUESTED_TOKENS = 1_000_000;

export type TopUpRequestStatus = 'pending' | 'approved' | 'declined';

/** A customer's request to buy tokens, which an operator approves (crediting them) or declines. */
export interface TopUpRequest {
  readonly id: string;
  readonly accountId: string;
  readonly tokens: number;
  /** What the customer quotes with the payment: "IJW-" and 8 letters and digits. */
  readonly reference: string;
  readonly status: TopUpRequestStatus;
  readonly createdAt: string;
  readonly decidedAt: string | null;
}

/** The store of top-up requests. */
export interface TopUpRequestRepository {
  create(request: TopUpRequest): Promise<'ok' | 'account_not_found'>;
  find(id: string): Promise<TopUpRequest | undefined>;
  /** The account's requests, newest first. */
  listForAccount(accountId: string): Promise<TopUpRequest[]>;
  /** Every pending request, oldest first. */
  listPending(): Promise<TopUpRequest[]>;
  /** Moves a pending request to `status`; false when it was no longer pending. */
  decide(id: string, status: Exclude<TopUpRequestStatus, 'pending'>, decidedAt: string): Promise<boolean>;
}

export type RequestTopUpResult =
  | { readonly ok: true; readonly request: TopUpRequest }
  | { readonly ok: false; readonly code: 'invalid_tokens' | 'account_not_found'; readonly message: string };

export type DecideResult =
  | { readonly ok: true; readonly request: TopUpRequest; readonly balance?: number }
  | { readonly ok: false; readonly code: 'not_found' | 'already_decided'; readonly message: string };

// Letters and digits that cannot be mistaken for one another when read out (no 0/O, 1/I/L).
const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function newReference(): string {
  const bytes = randomBytes(8);
  return `IJW-${Array.from(bytes, (b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('')}`;
}

/**
 * Buying tokens without a payment provider: the customer asks for a number of tokens and gets a
 * reference; the operator, once paid, approves the request, which credits the tokens through the
 * ledger as a top-up, or declines it. Approval marks the request first (only a pending one can
 * be), then credits it keyed by the request's id, so however many approvals run at once, or
 * retry after a failure, the tokens are credited exactly once and a declined request never is.
 */
export class TopUpRequestService {
  readonly #requests: TopUpRequestRepository;
  readonly #billing: Pick<BillingService, 'topUp'>;
  readonly #now: () => Date;

  constructor(
    requests: TopUpRequestRepository,
    billing: Pick<BillingService, 'topUp'>,
    now = () => new Date(),
  ) {
    this.#requests = requests;
    this.#billing = billing;
    this.#now = now;
  }

  async request(accountId: string, tokens: number): Promise<RequestTopUpResult> {
    if (!Number.isSafeInteger(tokens) || tokens < MINIMUM_TOP_UP || tokens > MAX_REQUESTED_TOKENS) {
      return {
        ok: false,
        code: 'invalid_tokens',
        message: `ask for a whole number of tokens from ${MINIMUM_TOP_UP} to ${MAX_REQUESTED_TOKENS.toLocaleString('en-US')}`,
      };
    }
    const request: TopUpRequest = {
      id: newId('top'),
      accountId,
      tokens,
      reference: newReference(),
      status: 'pending',
      createdAt: this.#now().toISOString(),
      decidedAt: null,
    };
    if ((await this.#requests.create(request)) === 'account_not_found')
      return { ok: false, code: 'account_not_found', message: 'no such account' };
    return { ok: true, request };
  }

  listForAccount(accountId: string): Promise<TopUpRequest[]> {
    return this.#requests.listForAccount(accountId);
  }

  listPending(): Promise<TopUpRequest[]> {
    return this.#requests.listPending();
  }

  /** Approves a pending request and credits its tokens, once; finishes the credit of an approved one. */
  async approve(id: string): Promise<DecideResult> {
    const found = await this.#requests.find(id);
    if (found === undefined) return { ok: false, code: 'not_found', message: `no top-up request ${id}` };
    const marked = await this.#requests.decide(id, 'approved', this.#now().toISOString());
    // Not pending any more: approved by an earlier or concurrent call (finish its credit), or declined.
    if (!marked && (await this.#requests.find(id))?.status !== 'approved')
      return { ok: false, code: 'already_decided', message: `${found.reference} was declined` };
    const credited = await this.#billing.topUp(found.accountId, found.tokens, { requestId: id });
    if (!credited.ok) throw new Error(`top-up request ${id} could not be credited: ${credited.code}`);
    const request = (await this.#requests.find(id)) ?? found;
    return { ok: true, request, balance: credited.balance };
  }

  async decline(id: string): Promise<DecideResult> {
    const found = await this.#requests.find(id);
    if (found === undefined) return { ok: false, code: 'not_found', message: `no top-up request ${id}` };
    if (!(await this.#requests.decide(id, 'declined', this.#now().toISOString())))
      return {
        ok: false,
        code: 'already_decided',
        message: `${found.reference} was already ${found.status}`,
      };
    return { ok: true, request: { ...found, status: 'declined' } };
  }
}
