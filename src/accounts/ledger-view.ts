import type { LedgerEntry } from './repositories.ts';

/**
 * An account's entries as its customer is shown them (the dashboard, the ledger command): a
 * charge and the refund that reversed it (a stream whose client left before its first audio, or
 * that failed) are left out together, since together they cost nothing and the customer heard
 * nothing; the balance is still the sum of what is shown. The ledger itself keeps both. A pair
 * split by a page's end (the refund on one page, its charge on the next) shows the charge alone
 * on its page.
 */
export function withoutReversedCharges(entries: readonly LedgerEntry[]): LedgerEntry[] {
  const reversed = new Set(
    entries.filter((e) => e.kind === 'refund' || e.kind === 'free_use_refund').map((e) => e.requestId),
  );
  return entries.filter((e) => e.requestId === null || !reversed.has(e.requestId));
}
