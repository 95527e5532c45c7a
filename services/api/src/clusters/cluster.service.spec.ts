import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, createServiceApp, type ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { apiKeyPrincipal, type Principal } from '../identity/principal.js';
import { WorkingSetHistoryService } from '../series/working-set-history.service.js';
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
    // Cluster a's members as ingest saw them: two hosts, a 16 GiB tier each, one recommendation.
    const [h1, h2] = [hexId(), hexId()];
    const io = { readOps: 100, writeOps: 10, hits: 80, misses: 30 };
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: h1, clusterId: a, io, tierBytes: 8 * GiB });
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: h2, clusterId: a, io });
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: h1, io });

    // The shared tier the jobs recommended from the cluster's merged stream: 4 GiB for both volumes.
    await tenants.owner.query(
      `INSERT INTO cluster_recommendations (tenant_id, cluster_id, window_name, volumes, tier_bytes, media, policy, eviction, replicas,
         predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
         datastore_latency_us, tier_write_bytes_per_day, inputs, explanation, created_at)
       VALUES ($1, $2, '24h', 2, $3, 'nvme', 'write-back', 's3-fifo', 1, 0.7, 0.8, 0.72, 140, 573440, 350, 1000, $4, '{}',
               'one tier for both', '2026-11-20T12:00:05Z')`,
      [tenant.tenant_id, a, 4 * GiB, 12 * GiB],
    );
    await tenants.owner.query(`UPDATE cluster_mrcs SET eviction_points = $3 WHERE tenant_id = $1 AND cluster_id = $2 AND window_name = 'all'`, [
      tenant.tenant_id, a, JSON.stringify({ 's3-fifo': [{ cache_bytes: 4194304, miss_ratio: 0.8 }, { cache_bytes: 2147483648, miss_ratio: 0.24 }] }),
    ]);

    const first = await clusters.list(auth, { limit: 1 });
    expect(first.data).toEqual([
      { cluster_id: a, volumes: 2, wss_bytes: 2 * GiB, updated_at: expect.any(String), hosts: 2, capacity_bytes: 32 * GiB, recommended_tier_bytes: 4 * GiB, volumes_recommended_tier_bytes: 8 * GiB },
    ]);
    const second = await clusters.list(auth, { limit: 1, cursor: first.next_cursor! });
    expect(second.data).toMatchObject([{ cluster_id: b, hosts: 0, capacity_bytes: 0, recommended_tier_bytes: null, volumes_recommended_tier_bytes: null }]);
    expect(second.next_cursor).toBeNull();

    const detail = await clusters.workingSet(auth, a);
    expect(detail).toMatchObject({ cluster_id: a, volumes: 2, hosts: 2, capacity_bytes: 32 * GiB, recommended_tier_bytes: 4 * GiB, volumes_recommended_tier_bytes: 8 * GiB });
    expect(detail.recommendation).toEqual({
      tier_bytes: 4 * GiB, media: 'nvme', policy: 'write-back', eviction: 's3-fifo', window_name: '24h', replicas: 1, volumes: 2,
      predicted_hit_ratio: 0.7, achievable_hit_ratio: 0.8, target_hit_ratio: 0.72, offloaded_iops: 140, offloaded_bytes_per_second: 573440,
      predicted_latency_us: 350, datastore_latency_us: 1000, tier_write_bytes_per_day: 12 * GiB, drive_writes_per_day: 3,
      explanation: 'one tier for both', created_at: '2026-11-20T12:00:05.000Z',
    });
    expect((await clusters.workingSet(auth, b)).recommendation).toBeNull();
    expect(detail.windows.map((w) => w.window)).toEqual(['1h', '24h', 'all']);
    expect(detail.windows[2]).toEqual({
      window: 'all',
      volumes: 2,
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
        curves: [{ eviction: 's3-fifo', points: [{ cache_bytes: 4194304, miss_ratio: 0.8 }, { cache_bytes: 2147483648, miss_ratio: 0.24 }] }],
      },
    });
    expect(detail.windows[0].mrc?.curves).toEqual([]);

    expect((await clusters.list(otherAuth, { limit: 10 })).data.map((c) => c.cluster_id)).not.toContain(a);
    await expect(clusters.workingSet(otherAuth, a)).rejects.toThrow(ApiError);
    await expect(clusters.workingSet(auth, hexId())).rejects.toThrow(/not found/);
  });

  it("keeps a cluster's working set once a minute (the db trigger) and gives it over time, never another tenant's", async () => {
    const c = hexId();
    const history = app.get(WorkingSetHistoryService);
    const day = { window: '1h' as const, from: '2026-11-20T00:00:00Z', to: '2026-11-21T00:00:00Z', width: 100 };
    for (const [minute, wss] of [[0, GiB], [1, 3 * GiB], [30, 2 * GiB]]) {
      await tenants.owner.query(
        `INSERT INTO cluster_working_sets (tenant_id, cluster_id, window_name, window_start, window_end, volumes, wss_bytes, wss_read_bytes,
           wss_write_bytes, sampled_references, sampling_rate, state_bytes)
         VALUES ($1, $2, '1h', $3::timestamptz - interval '1 hour', $3, 2, $4, $4, 0, 1000, 0.01, 1000)
         ON CONFLICT (tenant_id, cluster_id, window_name) DO UPDATE SET window_end = EXCLUDED.window_end, wss_bytes = EXCLUDED.wss_bytes,
           wss_read_bytes = EXCLUDED.wss_read_bytes`,
        [tenant.tenant_id, c, new Date(Date.parse('2026-11-20T06:00:00Z') + minute * 60_000), wss],
      );
    }
    // 24 h at 100 points: 15-minute buckets; the first holds minutes 0 and 1.
    const body = await history.get(auth, 'cluster', c, day);
    expect(body.bucket_seconds).toBe(900);
    expect(body.points).toEqual([
      { t: '2026-11-20T06:00:00.000Z', wss_max_bytes: 3 * GiB, wss_min_bytes: GiB, wss_bytes: 3 * GiB, wss_read_bytes: 3 * GiB, wss_write_bytes: 0 },
      { t: '2026-11-20T06:30:00.000Z', wss_max_bytes: 2 * GiB, wss_min_bytes: 2 * GiB, wss_bytes: 2 * GiB, wss_read_bytes: 2 * GiB, wss_write_bytes: 0 },
    ]);
    await expect(history.get(otherAuth, 'cluster', c, day)).rejects.toThrow(/cluster .* not found/);
  });
});
