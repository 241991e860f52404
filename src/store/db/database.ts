import type { Kysely } from 'kysely';
import type { DictionaryRepository } from '../../accounts/dictionary-repository.ts';
import type { AccountRepository, ApiKeyRepository, LedgerRepository } from '../../accounts/repositories.ts';
import type { TopUpRequestRepository } from '../../accounts/topup-requests.ts';
import type { PlayUrlRepository } from '../../calls/play-urls.ts';
import type { Schema } from './schema.ts';

/** An open database: the repositories the domain uses, a health check and a way to close it. */
export interface Database {
  readonly accounts: AccountRepository;
  readonly keys: ApiKeyRepository;
  readonly ledger: LedgerRepository;
  readonly dictionaries: DictionaryRepository;
  readonly topUpRequests: TopUpRequestRepository;
  readonly playUrls: PlayUrlRepository;
  /** The query builder itself, for tests and operator tooling; services go through the repositories. */
  readonly kysely: Kysely<Schema>;
  /** For the health check: true when a query round-trips, else a short reason with no path or host in it. */
  ping(): Promise<true | string>;
  /** Closes the connection (or pool); safe to call twice. */
  close(): Promise<void>;
}

/** Which database to open: the embedded SQLite file, or a PostgreSQL server shared by instances. */
export type DatabaseSource =
  | { readonly kind: 'sqlite'; readonly file: string }
  | { readonly kind: 'postgres'; readonly url: string };
