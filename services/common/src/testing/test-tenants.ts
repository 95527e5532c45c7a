import pg from 'pg';
import { loadEnv } from '../config/env.js';
import { credentialPrefix, generateCredential, sha256Hex } from '../crypto/credentials.js';
import { inTransaction } from '../database/transaction.js';
import { provisionTenant, type ProvisionedTenant } from '../tenants/provision-tenant.js';

/** Tables keyed by tenant_id without a foreign key to tenants (results of the stream jobs; the outbox). */
const RESULT_TABLES = ['volume_metrics_10s', 'metric_rollups', 'volume_io_stats', 'volume_block_sizes', 'volume_working_sets', 'volume_working_set_history', 'volume_mrcs', 'cluster_working_sets', 'cluster_working_set_history', 'cluster_mrcs', 'host_working_sets', 'host_mrcs', 'recommendations', 'outbox'];

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

  /**
   * Adds an API key to a tenant, as an admin would: a read key acts as viewer, a read-write key as admin.
   * @returns the key's id and its secret (stored only as SHA-256).
   */
  async createApiKey(tenantId: string, scope: 'read' | 'read-write', name = `test ${scope} key`): Promise<{ id: string; key: string }> {
    const key = generateCredential('twk_');
    const { rows } = await this.owner.query<{ id: string }>(
      'INSERT INTO api_keys (tenant_id, name, key_sha256, key_prefix, scope) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [tenantId, name, sha256Hex(key), credentialPrefix(key), scope],
    );
    return { id: rows[0].id, key };
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
