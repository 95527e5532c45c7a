/**
 * GET /v1/benchmarks over HTTP on the real PostgreSQL: cohorts of at least 5 tenants are
 * published, smaller ones are not, each tenant sees its own figures and its standing, and no
 * answer carries another tenant's volume ids or own figures.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarksDto } from '../src/benchmarks/benchmarks.dto.js';
import { startApi } from './support/live-api.js';

interface Member {
  tenant: ProvisionedTenant;
  volumeId: string;
  readShare: number;
  wssPerCapacity: number;
}

const CAPACITY = 16 * 2 ** 30;
/** 20 latency bucket counts (METRICS.md bounds): `n` I/Os in bucket `bucket` (e.g. 8: 200..500 µs). */
const latency = (bucket: number, n: number): number[] => Array.from({ length: 20 }, (_, i) => (i === bucket ? n : 0));

describe('GET /v1/benchmarks (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  const cohort: Member[] = [];
  let alone: Member;

  async function member(name: string, readShare: number, wssPerCapacity: number, bucket: number): Promise<Member> {
    const m = { tenant: await tenants.create(name), volumeId: hexId(), readShare, wssPerCapacity };
    const reads = Math.round(readShare * 10_000);
    await tenants.owner.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes,
                                   write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                   occupancy_bytes, capacity_bytes, latency_us)
       VALUES ($1, 'volume', $2, '1d', date_trunc('day', now()), 1, $3, $4, 0, 0, 0, 0, 0, 0, 0, 0, $5, $6)`,
      [m.tenant.tenant_id, m.volumeId, reads, 10_000 - reads, CAPACITY, { read: { '4096': latency(bucket, reads) } }],
    );
    await tenants.owner.query(
      `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes,
                                        wss_write_bytes, sampled_references, sampling_rate)
       VALUES ($1, $2, '24h', now() - interval '1 day', now(), $3, 0, 0, 1000, 0.01)`,
      [m.tenant.tenant_id, m.volumeId, Math.round(wssPerCapacity * CAPACITY)],
    );
    await tenants.owner.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio,
                                    target_hit_ratio, inputs, explanation)
       VALUES ($1, $2, 1073741824, 'ram', 'write-through', 0.8, 0.9, 0.81, '{}', 'benchmark test')`,
      [m.tenant.tenant_id, m.volumeId],
    );
    return m;
  }

  async function benchmarks(m: Member): Promise<{ body: BenchmarksDto; text: string }> {
    const response = await fetch(`${url}/v1/benchmarks`, { headers: { authorization: `Bearer ${m.tenant.api_key}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    return { body: JSON.parse(text) as BenchmarksDto, text };
  }

  beforeAll(async () => {
    ({ app, url } = await startApi());
    const shares = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65];
    for (const [i, share] of shares.entries()) {
      cohort.push(await member(`bench-${i}`, share, 0.2 * (i + 1), 7 + (i % 3)));
    }
    alone = await member('bench-alone', 0.1, 0.5, 12);
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it("publishes a cohort of 6 tenants with the caller's standing and nobody else's figures", async () => {
    const me = cohort[2];
    const { body, text } = await benchmarks(me);
    expect(body.min_tenants).toBe(5);
    expect(body.cohorts).toHaveLength(1);
    const c = body.cohorts[0];
    expect(c).toMatchObject({ media: 'ram', workload_class: 'mixed', published: true, tenant_count: 6, volume_ids: [me.volumeId] });
    expect(c.read_share.own).toBeCloseTo(0.5, 6);
    expect(c.read_share.rank).toBeCloseTo(2 / 6, 6);
    expect(c.wss_per_capacity.own).toBeCloseTo(0.6, 6);
    expect(c.wss_per_capacity.rank).toBeCloseTo(2 / 6, 6);
    for (const q of [c.read_share.cohort_p25, c.read_share.cohort_p50, c.read_share.cohort_p75]) {
      expect(q).toBeGreaterThanOrEqual(0.3);
      expect(q).toBeLessThanOrEqual(0.7);
    }
    expect(c.read_share.cohort_p25!).toBeLessThan(c.read_share.cohort_p75!);
    const [read4k] = c.latency;
    expect(read4k).toMatchObject({ direction: 'read', size_bin: '4096' });
    // own: every read in (500, 1000] µs; the cohort is 1/3 each of (100, 200], (200, 500] and
    // (500, 1000] (two tenants each, equal weights): its median is halfway through (200, 500].
    expect(read4k.own_p50_us).toBe(750);
    expect(read4k.cohort_p50_us).toBe(350);
    expect(read4k.cohort_p99_us).toBeGreaterThan(read4k.cohort_p50_us!);

    for (const other of cohort.filter((o) => o !== me).concat(alone)) {
      expect(text).not.toContain(other.volumeId);
      expect(text).not.toContain(other.tenant.tenant_id);
    }
    const othersShares = cohort.filter((o) => o !== me).map((o) => o.readShare);
    expect(othersShares).not.toContain(c.read_share.cohort_p25);
    expect(othersShares).not.toContain(c.read_share.cohort_p75);
  });

  it('does not publish a cohort of fewer than 5 tenants, but shows the caller its own figures', async () => {
    const { body } = await benchmarks(alone);
    expect(body.cohorts).toEqual([
      expect.objectContaining({
        media: 'ram',
        workload_class: 'write-heavy',
        published: false,
        tenant_count: null,
        volume_ids: [alone.volumeId],
        read_share: { own: 0.1, cohort_p25: null, cohort_p50: null, cohort_p75: null, rank: null },
      }),
    ]);
    expect(body.cohorts[0].latency).toEqual([
      expect.objectContaining({ direction: 'read', size_bin: '4096', cohort_p50_us: null, cohort_p95_us: null, cohort_p99_us: null }),
    ]);
  });
});
