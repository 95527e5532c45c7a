import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, createServiceApp, type ProvisionedTenant } from '@tierwise/common';
import { hexId, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { apiKeyPrincipal, type Principal } from '../auth/principal.js';
import { ClusterService } from './cluster.service.js';

const GiB = 1024 ** 3;

describe('ClusterService (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let clusters: ClusterService;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  let auth: Principal;
  let otherAuth: Principal;

  /** The stream jobs' rows of one cluster window (as tierwise_jobs writes them). */
  async function insertWindow(tenantId: string, clusterId: string, window: string, wssBytes: number, volumes: number) {
    await tenants.owner.query(
      `INSERT INTO cluster_working_sets (tenant_id, cluster_id, window_name, window_start, window_end, volumes, wss_bytes,
         wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate, state_bytes)
       VALUES ($1, $2, $3, '2026-11-20T10:00:00Z', '2026-11-20T12:00:00Z', $4, $5::bigint, $5::bigint / 2, $5::bigint / 4, 81920, 0.015, 300000)`,
      [tenantId, clusterId, window, volumes, wssBytes],
    );
    await tenants.owner.query(
      `INSERT INTO cluster_mrcs (tenant_id, cluster_id, window_name, method, sampling_rate, points)
       VALUES ($1, $2, $3, 'shards-fixed-size', 0.015, '[{"cache_bytes": 4194304, "miss_ratio": 0.9}, {"cache_bytes": 2147483648, "miss_ratio": 0.24}]')`,
      [tenantId, clusterId, window],
    );
  }

  beforeAll(async () => {
    app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
    await app.init();
    clusters = app.get(ClusterService);
    tenant = await tenants.create('cluster-service');
    other = await tenants.create('cluster-service-other');
    auth = apiKeyPrincipal({ id: randomUUID(), tenantId: tenant.tenant_id, scope: 'read' });
    otherAuth = apiKeyPrincipal({ id: randomUUID(), tenantId: other.tenant_id, scope: 'read' });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('lists the tenant\'s clusters and gives each window of a cluster with its MRC, never another tenant\'s', async () => {
    const [a, b] = [hexId(), hexId()].sort();
    for (const window of ['all', '1h', '24h']) {
      await insertWindow(tenant.tenant_id, a, window, 2 * GiB, 2);
    }
    await insertWindow(tenant.tenant_id, b, 'all', GiB, 3);
    await insertWindow(other.tenant_id, hexId(), 'all', GiB, 1);

    const first = await clusters.list(auth, { limit: 1 });
    expect(first.data).toEqual([{ cluster_id: a, volumes: 2, wss_bytes: 2 * GiB, updated_at: expect.any(String) }]);
    const second = await clusters.list(auth, { limit: 1, cursor: first.next_cursor! });
    expect(second.data.map((c) => c.cluster_id)).toEqual([b]);
    expect(second.next_cursor).toBeNull();

    const detail = await clusters.workingSet(auth, a);
    expect(detail.cluster_id).toBe(a);
    expect(detail.volumes).toBe(2);
    expect(detail.windows.map((w) => w.window)).toEqual(['1h', '24h', 'all']);
    expect(detail.windows[2]).toEqual({
      window: 'all',
      working_set: {
        wss_bytes: 2 * GiB,
        wss_read_bytes: GiB,
        wss_write_bytes: GiB / 2,
        sampling_rate: 0.015,
        sampled_references: 81920,
        window_start: '2026-11-20T10:00:00.000Z',
        window_end: '2026-11-20T12:00:00.000Z',
      },
      mrc: {
        method: 'shards-fixed-size',
        sampling_rate: 0.015,
        points: [
          { cache_bytes: 4194304, miss_ratio: 0.9 },
          { cache_bytes: 2147483648, miss_ratio: 0.24 },
        ],
      },
    });

    expect((await clusters.list(otherAuth, { limit: 10 })).data.map((c) => c.cluster_id)).not.toContain(a);
    await expect(clusters.workingSet(otherAuth, a)).rejects.toThrow(ApiError);
    await expect(clusters.workingSet(auth, hexId())).rejects.toThrow(/not found/);
  });
});
