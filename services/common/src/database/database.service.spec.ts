import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../config/env.js';
import type { ProvisionedTenant } from '../tenants/provision-tenant.js';
import { TestTenants } from '../testing/test-tenants.js';
import { DatabaseService } from './database.service.js';

describe('DatabaseService (real PostgreSQL, app role)', () => {
  const tenants = new TestTenants();
  const owner = tenants.owner;
  const database = new DatabaseService(loadEnv(['TIERWISE_PG_APP_URL']));
  let a: ProvisionedTenant;
  let b: ProvisionedTenant;

  beforeAll(async () => {
    [a, b] = [await tenants.create('db-a'), await tenants.create('db-b')];
    for (const [i, tenant] of [a, b].entries()) {
      await owner.query(`INSERT INTO volumes (tenant_id, volume_id, host_id) VALUES ($1, $2, 'h0')`, [tenant.tenant_id, `v${i}`]);
    }
  });

  afterAll(async () => {
    await tenants.cleanUp();
    await database.onModuleDestroy();
  });

  it('shows only the scoped tenant rows inside withTenant', async () => {
    const rows = await database.withTenant(a.tenant_id, async (db) => {
      const { rows } = await db.query('SELECT tenant_id, volume_id FROM volumes ORDER BY volume_id');
      return rows;
    });
    expect(rows).toEqual([{ tenant_id: a.tenant_id, volume_id: 'v0' }]);
  });

  it('shows no tenant rows to a pool query without the tenant setting (RLS)', async () => {
    const { rows } = await database.pool.query('SELECT count(*)::int AS n FROM volumes WHERE tenant_id = ANY($1)', [
      [a.tenant_id, b.tenant_id],
    ]);
    expect(rows[0].n).toBe(0);
  });

  it("refuses to write another tenant's row (RLS WITH CHECK)", async () => {
    const write = database.withTenant(a.tenant_id, (db) =>
      db.query(`INSERT INTO volumes (tenant_id, volume_id, host_id) VALUES ($1, 'intruder', 'h0')`, [b.tenant_id]),
    );
    await expect(write).rejects.toThrow(/row-level security/);
  });

  it('rolls back when the work fails', async () => {
    const failing = database.withTenant(a.tenant_id, async (db) => {
      await db.query(`INSERT INTO volumes (tenant_id, volume_id, host_id) VALUES ($1, 'rolled-back', 'h0')`, [a.tenant_id]);
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    const { rows } = await owner.query(`SELECT 1 FROM volumes WHERE volume_id = 'rolled-back'`);
    expect(rows).toHaveLength(0);
  });

  it('does not leak the tenant setting to the next user of the pooled client', async () => {
    await database.withTenant(a.tenant_id, async () => undefined);
    const { rows } = await database.pool.query('SELECT current_tenant_id() AS tenant');
    expect(rows[0].tenant).toBeNull();
  });

  it('rejects a tenant id that is not a UUID', async () => {
    await expect(database.withTenant('tenant-a', async () => 1)).rejects.toThrow('tenant id must be a UUID');
  });
});
