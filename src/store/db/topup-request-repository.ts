import type { Kysely, Selectable } from 'kysely';
import type {
  TopUpRequest,
  TopUpRequestRepository,
  TopUpRequestStatus,
} from '../../accounts/topup-requests.ts';
import type { Schema, TopUpRequestsTable } from './schema.ts';

function toRequest(row: Selectable<TopUpRequestsTable>): TopUpRequest {
  return {
    id: row.id,
    accountId: row.account_id,
    tokens: Number(row.tokens),
    reference: row.reference,
    status: row.status,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  };
}

/** Top-up requests in SQL. A decision is one conditional UPDATE: only a pending request moves. */
export class SqlTopUpRequestRepository implements TopUpRequestRepository {
  readonly #db: Kysely<Schema>;

  constructor(db: Kysely<Schema>) {
    this.#db = db;
  }

  async create(request: TopUpRequest): Promise<'ok' | 'account_not_found'> {
    const account = await this.#db
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', request.accountId)
      .executeTakeFirst();
    if (account === undefined) return 'account_not_found';
    await this.#db
      .insertInto('topup_requests')
      .values({
        id: request.id,
        account_id: request.accountId,
        tokens: request.tokens,
        reference: request.reference,
        status: request.status,
        created_at: request.createdAt,
        decided_at: request.decidedAt,
      })
      .execute();
    return 'ok';
  }

  async find(id: string): Promise<TopUpRequest | undefined> {
    const row = await this.#db
      .selectFrom('topup_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRequest(row);
  }

  async listForAccount(accountId: string): Promise<TopUpRequest[]> {
    const rows = await this.#db
      .selectFrom('topup_requests')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .limit(50)
      .execute();
    return rows.map(toRequest);
  }

  async listPending(): Promise<TopUpRequest[]> {
    const rows = await this.#db
      .selectFrom('topup_requests')
      .selectAll()
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .execute();
    return rows.map(toRequest);
  }

  async decide(
    id: string,
    status: Exclude<TopUpRequestStatus, 'pending'>,
    decidedAt: string,
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('topup_requests')
      .set({ status, decided_at: decidedAt })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
