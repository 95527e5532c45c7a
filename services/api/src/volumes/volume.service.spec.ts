import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, createServiceApp, type ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { apiKeyPrincipal, type Principal } from '../identity/principal.js';
import { VolumeService } from './volume.service.js';

const GiB = 1024 ** 3;

describe('VolumeService (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let volumes: VolumeService;
  let tenant: ProvisionedTenant;
  let auth: Principal;

  beforeAll(async () => {
    app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
    await app.init();
    volumes = app.get(VolumeService);
    tenant = await tenants.create('volume-service');
    auth = apiKeyPrincipal({ id: randomUUID(), tenantId: tenant.tenant_id, scope: 'read' });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('maps the rows of a volume into its detail', async () => {
    const volumeId = hexId();
    const hostId = hexId();
    await insertVolume(tenants.owner, tenant.tenant_id, {
      volumeId,
      hostId,
      displayName: 'sql-data',
      io: { readOps: 9_000_000_000_000, writeOps: 400, hits: 700, misses: 300, readHits: 90, readMisses: 10 },
      wssBytes: 48 * GiB,
      tierBytes: 64 * GiB,
      prediction: { window: '24h', replicas: 1, offloadedIops: 820.25, offloadedBytesPerSecond: 3_358_720, predictedLatencyUs: 212.5, datastoreLatencyUs: 1_400 },
      eviction: 'arc',
      mrcCacheBytes: 64 * GiB,
      evictionCurves: { sieve: 0.13, arc: 0.12, lru: 0.14 },
    });
    await tenants.owner.query(
      `INSERT INTO volume_block_sizes (tenant_id, volume_id, direction, bin_label, bin_upper_bytes, ops, bytes) VALUES
         ($1, $2, 'write', '>524288', NULL, 2, 2097152), ($1, $2, 'read', '8192', 8192, 10, 81920),
         ($1, $2, 'read', '4096', 4096, 90, 368640), ($1, $2, 'write', '4096', 4096, 398, 1630208)`,
      [tenant.tenant_id, volumeId],
    );

    expect(await volumes.get(auth, volumeId)).toEqual({
      volume_id: volumeId,
      host_id: hostId,
      display_name: 'sql-data',
      host_display_name: null,
      source: 'agent',
      io: {
        read_ops: 9_000_000_000_000,
        write_ops: 400,
        read_bytes: 9_000_000_000_000 * 4096,
        write_bytes: 400 * 8192,
        first_interval: '2026-11-20T10:00:00.000Z',
        last_interval: '2026-11-20T11:59:50.000Z',
      },
      cache: { hits: 700, misses: 300, hit_ratio: 0.7, read_hit_ratio: 0.9, capacity_bytes: 16 * GiB, evicted_bytes: 1048576 },
      block_sizes: [
        { direction: 'read', bin_label: '4096', bin_upper_bytes: 4096, ops: 90, bytes: 368640 },
        { direction: 'read', bin_label: '8192', bin_upper_bytes: 8192, ops: 10, bytes: 81920 },
        { direction: 'write', bin_label: '4096', bin_upper_bytes: 4096, ops: 398, bytes: 1630208 },
        { direction: 'write', bin_label: '>524288', bin_upper_bytes: null, ops: 2, bytes: 2097152 },
      ],
      working_set: {
        wss_bytes: 48 * GiB,
        wss_read_bytes: 36 * GiB,
        wss_write_bytes: 24 * GiB,
        sampling_rate: 0.01,
        sampled_references: 52000,
        window_start: '2026-11-20T10:00:00.000Z',
        window_end: '2026-11-20T12:00:00.000Z',
      },
      mrc: {
        method: 'shards-fixed-rate',
        sampling_rate: 0.01,
        points: [
          { cache_bytes: 0, miss_ratio: 1 },
          { cache_bytes: 64 * GiB, miss_ratio: 0.14 },
        ],
        curves: [
          { eviction: 'lru', points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.14 }] },
          { eviction: 'arc', points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.12 }] },
          { eviction: 'sieve', points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.13 }] },
        ],
      },
      recommendation: {
        tier_bytes: 64 * GiB,
        media: 'nvme',
        policy: 'write-through',
        predicted_hit_ratio: 0.86,
        achievable_hit_ratio: 0.95,
        target_hit_ratio: 0.855,
        window_name: '24h',
        replicas: 1,
        offloaded_iops: 820.25,
        offloaded_bytes_per_second: 3_358_720,
        predicted_latency_us: 212.5,
        datastore_latency_us: 1_400,
        tier_write_bytes_per_day: null,
        drive_writes_per_day: null,
        measured_hit_ratio: null,
        measured_at: null,
        measured_seconds: null,
        hit_ratio_error: null,
        eviction: 'arc',
        explanation: 'a 64 GiB NVMe tier reaches 86 % hits',
        inputs: { window: 'all', read_share: 0.8 },
        created_at: '2026-11-20T12:00:05.000Z',
      },
    });
  });

  it('gives a volume without results zeros, nulls and no block sizes', async () => {
    const volumeId = hexId();
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId, hostId: hexId() });
    const detail = await volumes.get(auth, volumeId);
    expect(detail).toMatchObject({
      display_name: null,
      source: 'agent',
      io: { read_ops: 0, write_ops: 0, first_interval: null, last_interval: null },
      cache: { hits: 0, misses: 0, hit_ratio: null, read_hit_ratio: null },
      block_sizes: [],
      working_set: null,
      mrc: null,
      recommendation: null,
    });
  });

  it('gives a miss ratio curve computed before the eviction policies were simulated no curves, and a recommendation before them no eviction', async () => {
    const volumeId = hexId();
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId, hostId: hexId(), mrcCacheBytes: GiB, tierBytes: GiB });
    const detail = await volumes.get(auth, volumeId);
    expect(detail.mrc).toMatchObject({ points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: GiB, miss_ratio: 0.14 }], curves: [] });
    expect(detail.recommendation).toMatchObject({ tier_bytes: GiB, eviction: null });
  });

  it('throws not_found for a volume the tenant does not have', async () => {
    const missing = await volumes.get(auth, hexId()).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ code: 'not_found' });
  });

  it('pages through volumes in each sort order, volumes without a value last', async () => {
    const sorted = await tenants.create('volume-sort');
    const sortedAuth = { ...auth, tenantId: sorted.tenant_id };
    const busy = { volumeId: 'a0000000000000001', hostId: hexId(), io: { readOps: 900, writeOps: 100, hits: 10, misses: 90 }, wssBytes: 1 * GiB };
    const quiet = { volumeId: 'a0000000000000002', hostId: hexId(), io: { readOps: 5, writeOps: 5, hits: 9, misses: 1 } };
    const big = { volumeId: 'a0000000000000003', hostId: hexId(), io: { readOps: 50, writeOps: 50, hits: 5, misses: 5 }, wssBytes: 9 * GiB };
    const idle = { volumeId: 'a0000000000000004', hostId: hexId() };
    for (const volume of [busy, quiet, big, idle]) {
      await insertVolume(tenants.owner, sorted.tenant_id, volume);
    }

    const order = async (sort: 'ops' | 'wss' | 'hit_ratio') => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await volumes.list(sortedAuth, { sort, limit: 3, cursor });
        expect(page.data.length).toBeLessThanOrEqual(3);
        ids.push(...page.data.map((v) => v.volume_id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return ids;
    };
    expect(await order('ops')).toEqual([busy, big, quiet, idle].map((v) => v.volumeId));
    expect(await order('wss')).toEqual([big, busy, quiet, idle].map((v) => v.volumeId));
    expect(await order('hit_ratio')).toEqual([quiet, big, busy, idle].map((v) => v.volumeId));

    const first = await volumes.list(sortedAuth, { sort: 'ops', limit: 1, cursor: undefined });
    expect(first.data[0]).toMatchObject({ volume_id: busy.volumeId, read_ops: 900, write_ops: 100, hit_ratio: 0.1, wss_bytes: GiB, recommended_tier_bytes: null });
    await expect(volumes.list(sortedAuth, { sort: 'wss', limit: 1, cursor: first.next_cursor! })).rejects.toThrow('cursor belongs to volumes:ops, not volumes:wss');
    await expect(volumes.list(sortedAuth, { sort: 'ops', limit: 1, cursor: 'garbage' })).rejects.toThrow('cursor is not a next_cursor of this API');
  });
});
