import {
  type BillingOutcome,
  type CommitChargeResult,
  FREE_MAX_SECONDS,
  tokensFor,
} from '../accounts/billing.ts';
import type { CallBilling } from './call-services.ts';
import { recordProgress } from './ledger-progress.ts';

/**
 * What a live context's bill needs from billing: the one atomic charge, its refund, the balance,
 * and the audio its entries stand for once the context has ended.
 */
export type LiveBilling = Pick<CallBilling, 'commitCharge' | 'refundCharge' | 'balance' | 'recordDuration'>;

export interface LiveBillOptions {
  readonly accountId: string;
  /** The context's request id; each part of its bill is `<requestId>.<n>`. */
  readonly requestId: string;
  readonly language: string;
  readonly charsPerToken: number;
  /** The signed-in studio (Kinyarwanda free there), not the API. */
  readonly studio: boolean;
}

/** One part of a context's text: its spoken characters and the most audio it may produce. */
export interface BilledPart {
  readonly characters: number;
  readonly maxSeconds: number;
  /** Seconds of audio the context had sent before this part (0 for its first). */
  readonly sentBefore?: number;
}

/**
 * The bill of one live context: one generation whose text arrives in parts, billed exactly as one
 * stream request of all the text spoken would be, and never ahead of its audio. Before a part's
 * first audio is sent, `cover` commits what the text spoken so far needs and nothing more:
 *
 * - the first part decides, as a stream does from its conservative duration bound: a free
 *   generation when one is left and the bound of the text so far is under 120 s, else tokens;
 * - on a free generation, later parts cost nothing while the bound of all the text stays under
 *   120 s; the part that passes it charges the tokens of all the text so far and gives the free
 *   generation back, in one transaction (a stream of that text would have paid tokens);
 * - on tokens, a part charges only the tokens the whole text needs beyond those already charged,
 *   so the sum is `tokensFor(all characters)`, the price of one stream request of the same text.
 *
 * Every commit is atomic under the account lock (see `BillingService.commitCharge`), so contexts
 * and requests running at once can neither overdraw nor share a free generation. A refused part
 * (402) leaves what earlier parts paid, which covered only the audio already sent.
 */
export class LiveBill {
  readonly #billing: LiveBilling;
  readonly #options: LiveBillOptions;
  #characters = 0;
  #maxSeconds = 0;
  #tokensCharged = 0;
  #via: 'free_use' | 'tokens' | 'studio_free' | undefined;
  #parts = 0;
  #last: BillingOutcome | undefined;
  /** Each ledger entry written, by its request id, and the audio sent before it was. */
  readonly #entries: { readonly requestId: string; readonly from: number }[] = [];
  /** Whether the context's first frame reached its client, once the transport knows. */
  #firstDelivery: Promise<boolean> | undefined;
  #ended = false;
  /** Whether the first part's delivery has been judged (a refund is decided once). */
  #judged = false;
  /** The seconds the context has sent so far (`follow`). */
  #sent: (() => number) | undefined;
  /** The entries' seconds kept up with the audio sent while the context goes on. */
  #progress: { stop(): Promise<void> } | undefined;
  /** Entries before this one stand for audio that is all sent: their seconds are final. */
  #final = 0;

  constructor(billing: LiveBilling, options: LiveBillOptions) {
    this.#billing = billing;
    this.#options = options;
  }

  /** Spoken characters billed so far. */
  get characters(): number {
    return this.#characters;
  }

  /** True once a part has been committed: audio has been paid for. */
  get started(): boolean {
    return this.#via !== undefined;
  }

  /**
   * `sent` tells the seconds of audio the context has sent so far: from its first charge to its
   * end, its ledger entries are brought up to it every 2 s, so that a process killed mid-context
   * leaves them a couple of seconds short at most, not at the bounds they were committed on.
   */
  follow(sent: () => number): void {
    this.#sent = sent;
  }

  /**
   * Commits what `part`, added to the parts before it, needs; on a refusal nothing changes and the
   * refusal is returned. Call it when the part's first audio is ready, before it is sent.
   */
  async cover(part: BilledPart): Promise<CommitChargeResult> {
    const characters = this.#characters + part.characters;
    const maxSeconds = this.#maxSeconds + part.maxSeconds;
    const total = tokensFor(characters, this.#options.charsPerToken);
    const parts = this.#parts;
    const result = await this.#commit(characters, maxSeconds, total);
    if (result.ok && this.#parts > parts)
      this.#entries.push({ requestId: `${this.#options.requestId}.${parts}`, from: part.sentBefore ?? 0 });
    if (result.ok) {
      this.#characters = characters;
      this.#maxSeconds = maxSeconds;
      this.#last = result.billing;
      // The context ended while this charge committed: no frame will follow it.
      if (this.#ended) await this.#judgeDelivery();
      else if (this.#progress === undefined && this.#sent !== undefined) {
        // A record that fails is left to the final one, which tries again and is reported.
        this.#progress = recordProgress(this.#sent, (seconds) => this.#recordSent(seconds).catch(() => {}));
      }
    }
    return result;
  }

  async #commit(characters: number, maxSeconds: number, total: number): Promise<CommitChargeResult> {
    const { accountId, requestId } = this.#options;
    const charge = (tokens: number, extra: { noFreeUse?: boolean; releasesFreeUseOf?: string }) =>
      this.#billing.commitCharge(accountId, {
        tokens,
        seconds: maxSeconds,
        characters,
        language: this.#options.language,
        requestId: `${requestId}.${this.#parts}`,
        studio: this.#options.studio,
        ...extra,
      });
    const outcome = (charged: number): CommitChargeResult => ({
      ok: true,
      entry: null,
      billing: { ...(this.#last as BillingOutcome), tokens_charged: charged },
    });

    if (this.#via === 'studio_free') return outcome(0);
    if (this.#via === undefined) {
      const result = await charge(total, {});
      if (!result.ok) return result;
      this.#parts++;
      this.#via =
        result.entry === null ? 'studio_free' : result.entry.kind === 'free_use' ? 'free_use' : 'tokens';
      if (this.#via === 'tokens') this.#tokensCharged = total;
      return result;
    }
    if (this.#via === 'free_use') {
      if (maxSeconds < FREE_MAX_SECONDS) return outcome(0);
      const result = await charge(total, { noFreeUse: true, releasesFreeUseOf: `${requestId}.0` });
      if (!result.ok) return result;
      this.#parts++;
      this.#via = 'tokens';
      this.#tokensCharged = total;
      return result;
    }
    const needed = total - this.#tokensCharged;
    if (needed <= 0) return outcome(this.#tokensCharged);
    const result = await charge(needed, { noFreeUse: true });
    if (!result.ok) return result;
    this.#parts++;
    this.#tokensCharged = total;
    return { ...result, billing: { ...result.billing, tokens_charged: total } };
  }

  /**
   * The context's first frame was handed to its transport; `delivered` settles whether its client
   * had it (the transport's rule: on the live socket, still open two turns of the event loop
   * later). Later frames do not change the verdict.
   */
  firstFrameHanded(delivered: Promise<boolean>): void {
    this.#firstDelivery ??= delivered;
  }

  /**
   * The context has ended (done, failed, or its client gone), having sent `sentSeconds` of audio.
   * A context whose client had no frame pays nothing: the first part's charge is given back when
   * no frame was handed over or the first was not delivered (judged once, as soon as its delivery
   * is known; a charge still committing is judged when it commits). Then the audio sent is
   * recorded on the ledger entries in place of the bounds they were committed on.
   */
  async end(sentSeconds: number): Promise<void> {
    this.#ended = true;
    await this.#progress?.stop();
    await this.#judgeDelivery();
    await this.#recordSent(sentSeconds);
  }

  /** Gives back the first part's charge, once, when the context's client had no frame of it. */
  async #judgeDelivery(): Promise<void> {
    if (this.#judged || !this.started) return;
    this.#judged = true;
    const delivered = (await this.#firstDelivery) ?? false;
    // Later parts stand: a part is charged only once audio before it was sent.
    if (delivered || this.#parts !== 1 || this.#via === 'studio_free') return;
    await this.#billing.refundCharge(this.#options.accountId, `${this.#options.requestId}.0`);
  }

  /**
   * Records on the ledger entries the audio the context has sent, `sentSeconds` in all: each entry
   * the audio sent from its commit to the next one's, so that the entries' seconds add up to what
   * the client was given. An entry followed by another is final and recorded once.
   */
  async #recordSent(sentSeconds: number): Promise<void> {
    const { accountId } = this.#options;
    for (let i = this.#final; i < this.#entries.length; i++) {
      const entry = this.#entries[i];
      if (entry === undefined) break;
      const next = this.#entries[i + 1];
      await this.#billing.recordDuration(
        accountId,
        entry.requestId,
        Math.max(0, (next?.from ?? sentSeconds) - entry.from),
      );
      if (next !== undefined) this.#final = i + 1;
    }
  }

  /** The context's billing object for `done`: what it was charged in all, and the balance now. */
  async summary(): Promise<BillingOutcome | undefined> {
    if (this.#last === undefined) return undefined;
    const tokens = this.#via === 'tokens' ? this.#tokensCharged : 0;
    const now = await this.#billing.balance(this.#options.accountId);
    if (!now.ok) return { ...this.#last, tokens_charged: tokens };
    return {
      ...this.#last,
      tokens_charged: tokens,
      token_balance: now.balance,
      free_uses_remaining: now.freeUsesRemaining,
    };
  }
}
