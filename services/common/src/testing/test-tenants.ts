import pg from 'pg';
import { loadEnv } from '../config/env.js';
import { inTransaction } from '../database/transaction.js';
import { provisionTenant, type ProvisionedTenant } from '../tenants/provision-tenant.js';

/** Tables of results keyed by tenant_id without a foreign key to tenants (written by the stream jobs). */
const RESULT_TABLES = ['volume_metrics_10s', 'metric_rollups', 'volume_io_stats', 'volume_block_sizes', 'volume_working_sets', 'volume_mrcs', 'recommendations'];

/**
 * Tenants for a test suite on the real database ($TIERWISE_PG_OWNER_URL), created as
 * tierwise_owner the way the seed CLI does; `cleanUp` deletes them with every row they own.
 */
export class TestTenants {
  /** A pool of the owner role (no row-level security), for arranging rows and checking them. */
  readonly owner = new pg.Pool({ connectionString: loadEnv(['TIERWISE_PG_OWNER_URL']).TIERWISE_PG_OWNER_URL, max: 2 });
  private readonly created: string[] = [];

  async create(name: string): Promise<ProvisionedTenant> {
    const tenant = await inTransaction(this.owner, (db) => provisionTenant(db, `test-${name}`));
    this.track(tenant.tenant_id);
    return tenant;
  }

  /** Deletes a tenant created some other way (e.g. by the seed CLI) in `cleanUp` too. */
  track(tenantId: string): void {
    this.created.push(tenantId);
  }

  async cleanUp(): Promise<void> {
    await inTransaction(this.owner, async (db) => {
      for (const table of RESULT_TABLES) {
        await db.query(`DELETE FROM ${table} WHERE tenant_id = ANY($1)`, [this.created]);
      }
      await db.query('DELETE FROM tenants WHERE id = ANY($1)', [this.created]);
    });
    await this.owner.end();
  }
}
