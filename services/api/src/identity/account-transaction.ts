import { Injectable } from '@nestjs/common';
import { DatabaseService, inTransaction, type Queryable } from '@tierwise/common';

/** Who a transaction acts for: row-level security shows the tenant's rows and the user's own. */
export interface AccountScope {
  /** UUID of the tenant (tierwise.tenant_id); absent before the tenant is known. */
  tenantId?: string;
  /** UUID of the user (tierwise.user_id): their users row, memberships, sessions, tokens, OIDC identities. */
  userId?: string;
}

/**
 * Transactions of the accounts module as tierwise_app: like `DatabaseService.withTenant`, with
 * the user setting as well (db/migrations/1700000000300_accounts.sql, current_user_id()).
 */
@Injectable()
export class AccountTransactions {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Runs `fn` in one transaction with `tierwise.tenant_id` / `tierwise.user_id` set
   * (transaction-local); commits when it resolves, rolls back and rethrows when it rejects.
   */
  run<T>(scope: AccountScope, fn: (db: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.database.pool, async (db) => {
      await db.query(`SELECT set_config('tierwise.tenant_id', $1, true), set_config('tierwise.user_id', $2, true)`, [
        scope.tenantId ?? '',
        scope.userId ?? '',
      ]);
      return fn(db);
    });
  }

  /** Runs a query outside any scope: only the SECURITY DEFINER look-ups answer there. */
  lookup<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    return this.database.pool.query<R & Record<string, unknown>>(sql, params).then((result) => result.rows);
  }
}
