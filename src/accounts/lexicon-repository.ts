import type { LanguageCode } from '../speech/text/verbalizer.ts';

/** How a lexicon entry says its phrase: a respelling read as text, or IPA read as phonemes. */
export type LexiconKind = 'respelling' | 'ipa';

/** One entry of an account's pronunciation lexicon. */
export interface LexiconEntry {
  readonly id: string;
  readonly accountId: string;
  readonly language: string;
  /** The word or phrase as written in requests. */
  readonly phrase: string;
  readonly kind: LexiconKind;
  /** The respelling, or the IPA. */
  readonly says: string;
  /**
   * The language a respelling's words are said as (a Kinyarwanda surname in an English voice);
   * null: decided as any text's words are.
   */
  readonly wordLanguage: LanguageCode | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type NewLexiconEntry = Omit<LexiconEntry, 'updatedAt'>;

/** What a change did: `duplicate` when another entry already has the phrase, `full` at the limit. */
export type LexiconWrite = 'ok' | 'duplicate' | 'full' | 'not_found';

/**
 * The lexicon port. Every change bumps the account's lexicon version in the same transaction, so
 * an instance that cached the lexicon sees it is stale with one small read.
 */
export interface LexiconRepository {
  /** The account's lexicon version; undefined when the account does not exist. */
  version(accountId: string): Promise<number | undefined>;
  /** Every entry of the account, oldest first. */
  list(accountId: string): Promise<LexiconEntry[]>;
  /** Adds an entry unless the account already holds `maxEntries` or the phrase (case-insensitive). */
  add(entry: NewLexiconEntry, maxEntries: number): Promise<LexiconWrite>;
  update(
    accountId: string,
    id: string,
    change: Pick<LexiconEntry, 'phrase' | 'kind' | 'says' | 'wordLanguage' | 'updatedAt'>,
  ): Promise<LexiconWrite>;
  remove(accountId: string, id: string): Promise<LexiconWrite>;
}
