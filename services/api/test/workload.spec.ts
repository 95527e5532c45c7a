/**
 * GET /v1/volumes/{volumeId}/workload over HTTP on the real PostgreSQL: the vscsiStats histograms
 * of the volume's rollup windows in the period merged bucket by bucket, the randomness figure,
 * another tenant's windows never included, 404 for a volume the tenant does not have.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { SEEK_DISTANCE_BOUNDS_SECTORS } from '@tierwise/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkloadDto } from '../src/workload/workload.dto.js';
import { startApi } from './support/live-api.js';

const HOUR_MS = 3600_000;
/** Counts with `n` in bucket `at` of a histogram of `buckets` buckets. */
const one = (buckets: number, at: number, n: number) => Array.from({ length: buckets }, (_, i) => (i === at ? n : 0));
const SEEK = SEEK_DISTANCE_BOUNDS_SECTORS.length + 1;
const SEQUENTIAL = SEEK_DISTANCE_BOUNDS_SECTORS.indexOf(1);
const FAR = SEEK - 1; // beyond 500000 sectors
const NEAR = SEEK_DISTANCE_BOUNDS_SECTORS.indexOf(-8); // (-16, -8]

describe('a volume’s vscsiStats workload (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  const volume = hexId();
  const hourStart = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;

  const get = async (path: string, key = tenant.api_key) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as WorkloadDto };
  };
  const insertWindow = (tenantId: string, resolution: string, start: number, workload: object, readBytes = 0) =>
    tenants.owner.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes, write_bytes,
         cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, workload)
       VALUES ($1, 'volume', $2, $3, $4, 1, 0, 0, $6, 0, 0, 0, 0, 0, 0, 0, 0, '{}', $5)`,
      [tenantId, volume, resolution, new Date(start), JSON.stringify(workload), readBytes],
    );

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [tenant, other] = [await tenants.create('workload'), await tenants.create('workload-other')];
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: volume, hostId: hexId() });
    await insertVolume(tenants.owner, other.tenant_id, { volumeId: volume, hostId: hexId() });
    await insertWindow(tenant.tenant_id, '1h', hourStart - 3 * HOUR_MS, {
      seek_distance: { all: one(SEEK, SEQUENTIAL, 600), read: one(SEEK, NEAR, 4) },
      outstanding: { all: one(13, 2, 10) },
      // 400 commands, 300 of them 512 bytes into their 4 KiB block: 4 KiB reads spanning two blocks.
      alignment: { all: [100, 300, 0, 0, 0, 0, 0, 0], read: [100, 300, 0, 0, 0, 0, 0, 0] },
      alignment_work: { read: [300 * 4096, 100 + 600, 400] },
    }, 400 * 4096);
    await insertWindow(tenant.tenant_id, '1h', hourStart - 2 * HOUR_MS, {
      seek_distance: { all: one(SEEK, FAR, 200), write: one(SEEK, SEQUENTIAL, 7) },
      seek_distance_closest: { all: one(SEEK, NEAR, 9) },
      interarrival_us: { all: one(11, 1, 800) },
      latency_us: { read: one(11, 4, 12) },
    });
    // Another tenant's window of a volume with the same id, and this tenant's 10 s window (a finer resolution than the period reads).
    await insertWindow(other.tenant_id, '1h', hourStart - 3 * HOUR_MS, { seek_distance: { all: one(SEEK, FAR, 1_000_000) } });
    await insertWindow(tenant.tenant_id, '10s', hourStart - 2 * HOUR_MS, { seek_distance: { all: one(SEEK, FAR, 1_000_000) } });
  });

  afterAll(async () => {
    await app?.close();
    await tenants.cleanUp();
  });

  it('merges the windows of the period bucket by bucket, with the vscsiStats bounds and the randomness', async () => {
    const { status, body } = await get(`/v1/volumes/${volume}/workload`);
    expect(status).toBe(200);
    expect(body.resolution).toBe('1h');
    expect(body.windows).toBe(2);
    expect(body.seek_distance.bounds).toEqual([...SEEK_DISTANCE_BOUNDS_SECTORS]);
    expect(body.seek_distance.all).toEqual(one(SEEK, SEQUENTIAL, 600).map((c, i) => c + (i === FAR ? 200 : 0)));
    expect(body.seek_distance.read).toEqual(one(SEEK, NEAR, 4));
    expect(body.seek_distance.write).toEqual(one(SEEK, SEQUENTIAL, 7));
    expect(body.seek_distance_closest).toMatchObject({ all: one(SEEK, NEAR, 9), read: null, write: null });
    expect(body.outstanding).toMatchObject({ bounds: [1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64], all: one(13, 2, 10), read: null });
    expect(body.interarrival_us.all).toEqual(one(11, 1, 800));
    expect(body.latency_us).toEqual({ bounds: [1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000], all: null, read: one(11, 4, 12), write: null });
    expect(body.randomness).toEqual({ commands: 800, sequential_share: 0.75, within_128_sectors_share: 0.75 });
  });

  it('says how misaligned the commands are, by which offset, and what it costs the tier', async () => {
    const { body } = await get(`/v1/volumes/${volume}/workload`);
    expect(body.alignment).toEqual({
      start_sector: { bounds: [0, 1, 2, 3, 4, 5, 6], all: [100, 300, 0, 0, 0, 0, 0, 0], read: [100, 300, 0, 0, 0, 0, 0, 0], write: null },
      commands: 400,
      misaligned_share: 0.75,
      misaligned_bytes_share: 0.75,
      extra_block_share: 0.75,
      dominant_offset_bytes: 512,
      realignment_advised: true,
    });
  });

  it('writes an fio job from the period: random share per direction from the seek distances, depth from the outstanding I/Os', async () => {
    const response = await fetch(`${url}/v1/volumes/${volume}/fio-job?rate=false`, { headers: { authorization: `Bearer ${tenant.api_key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="tierwise-${volume}.fio"`);
    const job = await response.text();
    expect(job).toContain('rw=randrw\n');
    expect(job).toContain('percentage_random=100,0\niodepth=4\n');
    expect(job).not.toContain('rate_iops');
    expect((await fetch(`${url}/v1/volumes/${hexId()}/fio-job`, { headers: { authorization: `Bearer ${tenant.api_key}` } })).status).toBe(404);
    expect((await fetch(`${url}/v1/volumes/${volume}/fio-job?rate=sometimes`, { headers: { authorization: `Bearer ${tenant.api_key}` } })).status).toBe(400);
  });

  it('reads only the period asked for', async () => {
    // A day from the second window on: read at 1 h (24 windows), the first window left out.
    const from = new Date(hourStart - 2 * HOUR_MS).toISOString();
    const to = new Date(hourStart + 22 * HOUR_MS).toISOString();
    const { body } = await get(`/v1/volumes/${volume}/workload?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(body.resolution).toBe('1h');
    expect(body.windows).toBe(1);
    expect(body.seek_distance.all).toEqual(one(SEEK, FAR, 200));
    expect(body.randomness).toMatchObject({ sequential_share: 0, within_128_sectors_share: 0 });
    expect(body.alignment).toBeNull();
  });

  it('answers 404 for a volume the tenant does not have and 400 for a malformed period', async () => {
    expect((await get(`/v1/volumes/${hexId()}/workload`)).status).toBe(404);
    expect((await get(`/v1/volumes/${volume}/workload?from=yesterday`)).status).toBe(400);
  });
});
