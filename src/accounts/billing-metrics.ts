// Billing's port for what it records, owned here and implemented by `metrics/`: accounts never
// imports the metrics it reports to.

/** How a committed charge was billed: tokens, a free generation, or studio Kinyarwanda (free). */
export type ChargeKind = 'charge' | 'free_use' | 'studio_free';

/** What a refund gave back: tokens, or a free generation. */
export type RefundKind = 'refund' | 'free_use_refund';

/** What billing records: each committed charge, refund and payment refusal (no account ids). */
export interface BillingMetrics {
  charged(kind: ChargeKind, tokens: number): void;
  refunded(kind: RefundKind, tokens: number): void;
  /** A request refused for want of tokens (402 `insufficient_tokens`). */
  paymentRefused(): void;
}

/** Records nothing: billing's default, when no metrics are given. */
export const noBillingMetrics: BillingMetrics = {
  charged() {},
  refunded() {},
  paymentRefused() {},
};
