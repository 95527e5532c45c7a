import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import pg from 'pg';
import { z } from 'zod';
import { InjectEnv } from '../config/config.module.js';
import type { Env } from '../config/env.js';
import { inTransaction, type Queryable } from './transaction.js';

const tenantIdSchema = z.uuid();

/**
 * The service's PostgreSQL pool, connected as the tierwise_app role, on which row-level
 * security applies (db/migrations/1700000000000_spine.sql): a tenant table shows and accepts
 * only the rows of `current_setting('tierwise.tenant_id')`; without the setting, none.
 */
@Injectable()
export class DatabaseService implements OnModuleDestroy {
  readonly pool: pg.Pool;

  constructor(@InjectEnv() env: Env<'TIERWISE_PG_APP_URL'>) {
    this.pool = new pg.Pool({ connectionString: env.TIERWISE_PG_APP_URL, max: 10, application_name: 'tierwise' });
  }

  /**
   * Runs `fn` in one transaction scoped to a tenant: `SELECT set_config('tierwise.tenant_id', $1, true)`
   * (transaction-local) first, so row-level security shows and accepts only that tenant's rows.
   * Commits when `fn` resolves, rolls back when it rejects (and rethrows).
   *
   * @param tenantId the tenant's UUID.
   * @param fn work to run on the transaction's client; the client must not escape `fn`.
   * @throws TypeError when `tenantId` is not a UUID; whatever `fn` or PostgreSQL throw.
   */
  withTenant<T>(tenantId: string, fn: (db: Queryable) => Promise<T>): Promise<T> {
    if (!tenantIdSchema.safeParse(tenantId).success) {
      return Promise.reject(new TypeError(`tenant id must be a UUID, got ${JSON.stringify(tenantId)}`));
    }
    return inTransaction(this.pool, async (db) => {
      await db.query(`SELECT set_config('tierwise.tenant_id', $1, true)`, [tenantId]);
      return fn(db);
    });
  }

  /** Checks that PostgreSQL answers (`SELECT 1`); rejects with the driver's error otherwise. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
