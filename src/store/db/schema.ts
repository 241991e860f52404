import type { Generated } from 'kysely';
import type { LedgerKind } from '../../accounts/repositories.ts';

// Table shapes as kysely sees them. Column names are snake_case in the database and camelCase in
// the records the repositories return (see the mapping functions next to each repository).

export interface AccountsTable {
  id: string;
  name: string;
  email: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string | null;
  hash: string;
  hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface LedgerTable {
  id: string;
  account_id: string;
  seq: number;
  kind: LedgerKind;
  tokens: number;
  characters: number | null;
  language: string | null;
  seconds: number | null;
  request_id: string | null;
  created_at: string;
  /** The account's balance (sum of `tokens`) up to and including this entry. */
  balance_after: number;
  /** The account's free uses up to and including this entry. */
  free_uses_after: number;
}

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  created_at: string;
  /** The website language the user chose (`rw`, `fr`, `en`), null until they choose one (migration 0008). */
  language: string | null;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** Every table the migrations create. */
export interface Schema {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  ledger: LedgerTable;
  users: UsersTable;
  sessions: SessionsTable;
  pronunciation_dictionaries: PronunciationDictionariesTable;
  pronunciation_entries: PronunciationEntriesTable;
  topup_requests: TopUpRequestsTable;
  studio_audio: StudioAudioTable;
  play_urls: PlayUrlsTable;
  play_url_keys: PlayUrlKeysTable;
}

export interface PlayUrlsTable {
  id: string;
  account_id: string;
  input: string;
  options: string;
  format: 'wav' | 'mp3';
  state: 'new' | 'speaking' | 'ready' | 'failed';
  file_id: string | null;
  claimed_at: string | null;
  created_at: string;
  expires_at: string;
}

export interface PlayUrlKeysTable {
  purpose: string;
  key_id: string;
  secret: string;
  created_at: string;
}

export interface StudioAudioTable {
  account_id: string;
  digest: string;
  created_at: string;
}

export interface TopUpRequestsTable {
  id: string;
  account_id: string;
  tokens: number;
  reference: string;
  status: 'pending' | 'approved' | 'declined';
  created_at: string;
  decided_at: string | null;
}

export interface PronunciationDictionariesTable {
  id: string;
  account_id: string;
  name: string;
  /** Bumped by every change; the version a request may name. */
  version: number;
  /** The oldest version whose entries are still kept. */
  first_version: number;
  created_at: string;
  updated_at: string;
}

export interface PronunciationEntriesTable {
  id: string;
  dictionary_id: string;
  language: string;
  phrase: string;
  /** The phrase folded for matching (`phraseKey`): one current entry per phrase and language. */
  phrase_key: string;
  kind: 'respelling' | 'ipa';
  says: string;
  word_language: 'rw' | 'en' | 'fr' | null;
  /** The version that added the entry. */
  added_in: number;
  /** The version that removed or replaced it; null while it is current. */
  removed_in: number | null;
  created_at: string;
  /** The order of entries written together (with the same `created_at`). */
  position: Generated<number>;
}
