import type { LanguageCode } from '../speech/text/verbalizer.ts';

/** How an entry says its phrase: a respelling read as text, or IPA read as phonemes. */
export type LexiconKind = 'respelling' | 'ipa';

/** One entry of a pronunciation dictionary. */
export interface LexiconEntry {
  readonly id: string;
  readonly language: LanguageCode;
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
}

/** A dictionary as it is now. */
export interface DictionaryRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  /** Bumped by every change; 0 for a default dictionary never changed. */
  readonly version: number;
  /** The oldest version still kept (selectable and readable). */
  readonly firstVersion: number;
  /** Entries of the current version. */
  readonly entryCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * One change, made as one new version: entries removed (by id, by phrase, or every entry, or
 * every entry of one language), then entries added, and a new name.
 */
export interface DictionaryChange {
  readonly name?: string;
  readonly removeAll?: boolean;
  readonly removeLanguage?: LanguageCode;
  readonly removeIds?: readonly string[];
  readonly removePhrases?: readonly { readonly language: LanguageCode; readonly phraseKey: string }[];
  readonly add?: readonly LexiconEntry[];
  readonly at: string;
}

/** Limits a change is checked against, inside its transaction. */
export interface DictionaryLimits {
  readonly maxDictionaries: number;
  readonly maxEntries: number;
  /** Versions kept: older ones (and the entries only they hold) are dropped. */
  readonly keptVersions: number;
}

export type DictionaryWrite =
  | { readonly ok: true; readonly dictionary: DictionaryRecord }
  | {
      readonly ok: false;
      /**
       * `not_found`: no such dictionary of the account (or entry, for `removeIds`);
       * `duplicate`: a phrase already current in its language; `full`: over `maxEntries`;
       * `too_many`: over `maxDictionaries`.
       */
      readonly code: 'not_found' | 'duplicate' | 'full' | 'too_many';
      /** For `duplicate`: the phrase. */
      readonly phrase?: string;
    };

/** The default dictionary's id: the account's id with the dictionary prefix (see migration 0010). */
export function defaultDictionaryId(accountId: string): string {
  return `dict_${accountId.slice(accountId.indexOf('_') + 1)}`;
}

/**
 * The dictionaries port. Every change runs in one transaction with the account locked: it checks
 * the limits, writes, and bumps the dictionary's version, so concurrent changes can neither pass a
 * limit nor be missed by an instance's cache, which checks the version before use.
 */
export interface DictionaryRepository {
  /** The account's dictionaries, oldest first. */
  list(accountId: string): Promise<DictionaryRecord[]>;
  /** Versions of the named dictionaries that belong to the account (others are absent). */
  versions(
    accountId: string,
    ids: readonly string[],
  ): Promise<Map<string, { readonly version: number; readonly firstVersion: number }>>;
  /** The entries of a dictionary at `version`, oldest first (the caller checked the version is kept). */
  entries(dictionaryId: string, version: number): Promise<LexiconEntry[]>;
  create(
    dictionary: {
      readonly id: string;
      readonly accountId: string;
      readonly name: string;
      readonly at: string;
    },
    entries: readonly LexiconEntry[],
    limits: DictionaryLimits,
  ): Promise<DictionaryWrite>;
  /** Makes `change` the dictionary's next version; the default dictionary is made on its first change. */
  change(
    accountId: string,
    id: string,
    change: DictionaryChange,
    limits: DictionaryLimits,
  ): Promise<DictionaryWrite>;
  /** Removes a dictionary and its entries; false when the account has no such dictionary. */
  remove(accountId: string, id: string): Promise<boolean>;
}
