import { BadRequestError, type DesiredPolicy, NotFoundError, PermissionDeniedError, type Tierwise } from '@tierwise/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { GiB, type World } from './support/world.js';

describe('SDK: volumes, policies and metrics export (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-volumes');
  let world: World;
  let reader: Tierwise;
  let admin: Tierwise;

  beforeAll(() => {
    world = live.world;
    reader = live.client(world.readKey);
    admin = live.client(world.adminKey);
  });

  it('pages through the volumes one at a time with the async iterator, in I/O order', async () => {
    const first = await reader.volumes.list({ limit: 1 });
    expect(first.data.map((v) => v.volume_id)).toEqual([world.recommendedVolume]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const volume of reader.volumes.iterate({ limit: 1 })) {
      all.push(volume.volume_id);
    }
    expect(all).toEqual([world.recommendedVolume, world.plainVolume]);
    const withRecommendation = await reader.volumes.list({ has_recommendation: 'true' });
    expect(withRecommendation.data.map((v) => v.volume_id)).toEqual([world.recommendedVolume]);
  });

  it("gives a volume's vscsiStats workload (empty histograms before any is reported), and NotFoundError for an unknown volume", async () => {
    const workload = await reader.volumes.workload(world.plainVolume);
    expect(workload).toMatchObject({ volume_id: world.plainVolume, windows: 0, randomness: null, alignment: null, seek_distance: { all: null, read: null, write: null } });
    expect(workload.seek_distance.bounds).toHaveLength(33);
    await expect(reader.volumes.workload('00000000deadbeef')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reads a policy change as storage-bound CPU, and NotFoundError before any policy was applied', async () => {
    await expect(reader.volumes.policyEffect(world.plainVolume)).rejects.toBeInstanceOf(NotFoundError);
    await world.tenants.owner.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, tier_bytes, media, eviction, source, updated_by_kind, updated_by_id, applied_version, applied_at)
       VALUES ($1, $2, 1, 'write-through', 1073741824, 'ram', 's3-fifo', 'manual', 'api_key', gen_random_uuid(), 1, now() - interval '1 minute')`,
      [world.tenantId, world.plainVolume],
    );
    try {
      const effect = await reader.volumes.policyEffect(world.plainVolume);
      expect(effect).toMatchObject({ volume_id: world.plainVolume, policy_version: 1, before: null, after: null, verdict: 'insufficient_data' });
      expect(effect.statement).toContain('policy version 1 was applied');
    } finally {
      await world.tenants.owner.query('DELETE FROM volume_policies WHERE tenant_id = $1 AND volume_id = $2', [world.tenantId, world.plainVolume]);
    }
  });

  it("shows a volume, and answers another tenant's volume with NotFoundError", async () => {
    expect(await reader.volumes.get(world.recommendedVolume)).toMatchObject({
      volume_id: world.recommendedVolume,
      display_name: 'db-data',
      io: { read_ops: 900 },
      mrc: {
        points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.14 }],
        curves: [
          { eviction: 'lru', points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.14 }] },
          { eviction: 'sieve', points: [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 64 * GiB, miss_ratio: 0.12 }] },
        ],
      },
      recommendation: { tier_bytes: 64 * GiB, eviction: 'sieve' },
    });
    await expect(reader.volumes.get(world.otherVolume)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('sets a policy (versions count up), refuses a read key and a write-back without copies', async () => {
    await expect(reader.volumes.setPolicy(world.plainVolume, { mode: 'write-through', tier_bytes: 8 * GiB, media: 'ram' })).rejects.toBeInstanceOf(PermissionDeniedError);
    const first = await admin.volumes.setPolicy(world.plainVolume, { mode: 'write-through', tier_bytes: 8 * GiB, media: 'ram' });
    expect(first).toMatchObject({ volume_id: world.plainVolume, version: 1, mode: 'write-through', write_back_copies: null, tier_bytes: 8 * GiB, media: 'ram', eviction: 's3-fifo', source: 'manual', applied_version: null, in_sync: false });
    const second = await admin.volumes.setPolicy(world.plainVolume, { mode: 'write-back', write_back_copies: 2, tier_bytes: 16 * GiB, media: 'nvme', eviction: 's3-fifo' });
    expect(second).toMatchObject({ version: 2, mode: 'write-back', write_back_copies: 2, tier_bytes: 16 * GiB, updated_by: { kind: 'api_key', id: world.adminKeyId } });
    expect(await reader.volumes.getPolicy(world.plainVolume)).toEqual(second);
    // What an untyped (JavaScript) caller could send: write-back without its n.
    const withoutCopies = { mode: 'write-back', tier_bytes: 16 * GiB, media: 'nvme' } as unknown as DesiredPolicy;
    const missingCopies = await admin.volumes.setPolicy(world.plainVolume, withoutCopies).catch((error: unknown) => error);
    expect(missingCopies).toBeInstanceOf(BadRequestError);
    expect((missingCopies as BadRequestError).message).toContain('write_back_copies');
  });

  it('exports the interval metrics of a time range as CSV', async () => {
    const csv = await reader.volumes.exportMetricsCsv(world.recommendedVolume, { from: world.intervalStarts[1], to: new Date().toISOString() });
    const [header, ...lines] = csv.trim().split('\n');
    expect(header.split(',').slice(0, 6)).toEqual(['interval_start', 'interval_seconds', 'read_ops', 'write_ops', 'read_iops', 'write_iops']);
    expect(lines.map((line) => line.split(',').slice(0, 5))).toEqual([
      [world.intervalStarts[1], '10', '200', '10', '20'],
      [world.intervalStarts[2], '10', '300', '10', '30'],
    ]);
    expect(lines[0].split(',')[header.split(',').indexOf('hit_ratio')]).toBe('0.75');
    const tooLong = await reader.volumes.exportMetricsCsv(world.recommendedVolume, { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }).catch((error: unknown) => error);
    expect(tooLong).toBeInstanceOf(BadRequestError);
    expect((tooLong as BadRequestError).message).toContain('longer than 7 days');
  });
});
