import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, createServiceApp, type ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { apiKeyPrincipal, type Principal } from '../identity/principal.js';
import { HostService } from './host.service.js';

const GiB = 1024 ** 3;

describe('HostService.workingSet (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let hosts: HostService;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  let auth: Principal;
  let otherAuth: Principal;

  beforeAll(async () => {
    app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
    await app.init();
    hosts = app.get(HostService);
    tenant = await tenants.create('host-service');
    other = await tenants.create('host-service-other');
    auth = apiKeyPrincipal({ id: randomUUID(), tenantId: tenant.tenant_id, scope: 'read' });
    otherAuth = apiKeyPrincipal({ id: randomUUID(), tenantId: other.tenant_id, scope: 'read' });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it("gives the tier a host's volumes share (every policy's curve, the recommendation), never another tenant's", async () => {
    const [h, empty] = [hexId(), hexId()];
    const io = { readOps: 100, writeOps: 10, hits: 80, misses: 30 };
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: h, io, tierBytes: 8 * GiB });
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: h, io });
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: empty });
    // The stream jobs' rows of the host's merged stream (as tierwise_jobs writes them).
    await tenants.owner.query(
      `INSERT INTO host_working_sets (tenant_id, host_id, window_name, window_start, window_end, volumes, wss_bytes,
         wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate, state_bytes)
       VALUES ($1, $2, '24h', '2026-11-20T10:00:00Z', '2026-11-20T12:00:00Z', 2, $3::bigint, $3::bigint / 2, $3::bigint / 4, 81920, 0.015, 300000)`,
      [tenant.tenant_id, h, 2 * GiB],
    );
    await tenants.owner.query(
      `INSERT INTO host_mrcs (tenant_id, host_id, window_name, method, sampling_rate, points, eviction_points)
       VALUES ($1, $2, '24h', 'shards-fixed-size', 0.015, '[{"cache_bytes": 4194304, "miss_ratio": 0.9}, {"cache_bytes": 2147483648, "miss_ratio": 0.24}]',
               '{"s3-fifo": [{"cache_bytes": 4194304, "miss_ratio": 0.8}, {"cache_bytes": 2147483648, "miss_ratio": 0.24}]}')`,
      [tenant.tenant_id, h],
    );
    await tenants.owner.query(
      `INSERT INTO host_recommendations (tenant_id, host_id, window_name, volumes, tier_bytes, media, policy, eviction, replicas,
         predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
         datastore_latency_us, tier_write_bytes_per_day, inputs, explanation, created_at)
       VALUES ($1, $2, '24h', 2, $3, 'nvme', 'write-through', 's3-fifo', 0, 0.7, 0.8, 0.72, 140, 573440, 350, 1000, $4, '{}',
               'one device for both volumes', '2026-11-20T12:00:05Z')`,
      [tenant.tenant_id, h, 4 * GiB, 12 * GiB],
    );

    const detail = await hosts.workingSet(auth, h);
    expect(detail).toMatchObject({ host_id: h, display_name: null, volumes: 2, capacity_bytes: 32 * GiB, volumes_recommended_tier_bytes: 8 * GiB });
    expect(detail.windows).toEqual([
      {
        window: '24h',
        volumes: 2,
        working_set: {
          wss_bytes: 2 * GiB, wss_read_bytes: GiB, wss_write_bytes: GiB / 2, sampling_rate: 0.015, sampled_references: 81920,
          window_start: '2026-11-20T10:00:00.000Z', window_end: '2026-11-20T12:00:00.000Z',
        },
        mrc: {
          method: 'shards-fixed-size',
          sampling_rate: 0.015,
          points: [{ cache_bytes: 4194304, miss_ratio: 0.9 }, { cache_bytes: 2147483648, miss_ratio: 0.24 }],
          curves: [{ eviction: 's3-fifo', points: [{ cache_bytes: 4194304, miss_ratio: 0.8 }, { cache_bytes: 2147483648, miss_ratio: 0.24 }] }],
        },
      },
    ]);
    expect(detail.recommendation).toEqual({
      tier_bytes: 4 * GiB, media: 'nvme', policy: 'write-through', eviction: 's3-fifo', window_name: '24h', replicas: 0, volumes: 2,
      predicted_hit_ratio: 0.7, achievable_hit_ratio: 0.8, target_hit_ratio: 0.72, offloaded_iops: 140, offloaded_bytes_per_second: 573440,
      predicted_latency_us: 350, datastore_latency_us: 1000, tier_write_bytes_per_day: 12 * GiB, drive_writes_per_day: 3,
      explanation: 'one device for both volumes', created_at: '2026-11-20T12:00:05.000Z',
    });
    // A host the jobs have no result for yet: what its volumes add up to, no windows, no recommendation.
    expect(await hosts.workingSet(auth, empty)).toEqual({
      host_id: empty, display_name: null, volumes: 1, capacity_bytes: 0, volumes_recommended_tier_bytes: null, windows: [], recommendation: null,
    });
    await expect(hosts.workingSet(otherAuth, h)).rejects.toThrow(ApiError);
    await expect(hosts.workingSet(auth, hexId())).rejects.toThrow(/host .* not found/);
  });
});
