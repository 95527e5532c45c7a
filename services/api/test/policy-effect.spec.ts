/**
 * GET /v1/volumes/{volumeId}/policy-effect over HTTP on the real PostgreSQL: the volume's 10 s
 * windows since its policy was applied against as long before, read as work done when latency fell
 * and CPU rose with CPU per I/O steady, as a cost when CPU per I/O rose; 404 for another tenant's
 * volume and for one whose agent applied no policy.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyEffectDto } from '../src/cpu/policy-effect.dto.js';
import { startApi } from './support/live-api.js';

/** Latency bucket index of 500 µs and of 50 µs (LATENCY_BOUNDS_US). */
const [SLOW, FAST] = [8, 5];
const latency = (bucket: number, ops: number) => ({ read: { '4096': Array.from({ length: 20 }, (_, i) => (i === bucket ? ops : 0)) } });
/** CPU of a 10 s window on a 2-CPU host: `busy` share, the consumer `cores`. */
const cpu = (busy: number, cores: number) => ({
  host_us: { user: busy * 20e6 * 0.7, nice: 0, system: busy * 20e6 * 0.3, idle: (1 - busy - 0.05) * 20e6, iowait: 0.05 * 20e6, interrupt: 0, steal: 0 },
  host_wall_us: 10e6,
  consumer: { process: { user_us: cores * 10e6 * 0.8, system_us: cores * 10e6 * 0.2, wall_us: 10e6 } },
});

describe('a policy change read as storage-bound CPU (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  const [faster, costlier, unapplied] = [hexId(), hexId(), hexId()];
  const appliedAt = Math.floor(Date.now() / 10_000) * 10_000 - 300_000;

  const get = async (volume: string, key = tenant.api_key) => {
    const response = await fetch(`${url}/v1/volumes/${volume}/policy-effect`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as PolicyEffectDto };
  };
  /** 30 windows before the change and 30 after: ops, latency bucket and CPU of each side. */
  const insertSpans = async (volume: string, before: [number, number, object], after: [number, number, object]) => {
    for (let k = -30; k < 30; k++) {
      const [ops, bucket, cpuCells] = k < 0 ? before : after;
      await tenants.owner.query(
        `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes, write_bytes,
           cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, cpu)
         VALUES ($1, 'volume', $2, '10s', $3, 1, $4, 0, $4::bigint * 4096, 0, 0, 0, 0, 0, 0, 0, 0, $5, $6)`,
        [tenant.tenant_id, volume, new Date(appliedAt + k * 10_000), ops, JSON.stringify(latency(bucket, ops)), JSON.stringify(cpuCells)],
      );
    }
    await tenants.owner.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, tier_bytes, media, eviction, source, updated_by_kind, updated_by_id, applied_version, applied_at)
       VALUES ($1, $2, 2, 'write-through', 1073741824, 'ram', 's3-fifo', 'manual', 'api_key', gen_random_uuid(), 2, $3)`,
      [tenant.tenant_id, volume, new Date(appliedAt)],
    );
  };

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [tenant, other] = [await tenants.create('policy-effect'), await tenants.create('policy-effect-other')];
    const hostId = hexId();
    for (const volumeId of [faster, costlier, unapplied]) await insertVolume(tenants.owner, tenant.tenant_id, { volumeId, hostId });
    // The tier takes the reads off slow storage: more I/O at lower latency, CPU up in proportion.
    await insertSpans(faster, [20_000, SLOW, cpu(0.1, 0.2)], [80_000, FAST, cpu(0.4, 0.8)]);
    // Same I/O, faster, but each I/O costs three times the consumer's CPU.
    await insertSpans(costlier, [20_000, SLOW, cpu(0.1, 0.2)], [20_000, FAST, cpu(0.3, 0.6)]);
  });

  afterAll(async () => {
    await tenants.owner.query('DELETE FROM volume_policies WHERE tenant_id = $1', [tenant.tenant_id]);
    await app.close();
    await tenants.cleanUp();
  });

  it('reads CPU that rose as latency fell, with CPU per I/O steady, as work getting done', async () => {
    // The span is the whole 10 s windows since the change at the request's time: 300 s, or more
    // when a slow setup let the clock pass a window boundary (the 30 windows after it stay 300 s).
    const spanAt = (t: number) => Math.floor((t - appliedAt) / 10_000) * 10;
    const earliest = spanAt(Date.now());
    const { status, body } = await get(faster);
    expect(status).toBe(200);
    expect(body.span_seconds).toBeGreaterThanOrEqual(earliest);
    expect(body.span_seconds).toBeLessThanOrEqual(spanAt(Date.now()));
    expect(body).toMatchObject({ policy_version: 2, applied_at: new Date(appliedAt).toISOString(), verdict: 'work_done' });
    expect(body.before).toMatchObject({ seconds: 290, iops: 2000, host_busy: 0.1, consumer_cores: 0.2, cpu_us_per_io: 100 });
    expect(body.after).toMatchObject({ seconds: 300, iops: 8000, host_busy: 0.4, consumer_cores: 0.8, cpu_us_per_io: 100 });
    expect(body.before!.latency_p50_us).toBeGreaterThan(200);
    expect(body.after!.latency_p50_us).toBeLessThanOrEqual(50);
    expect(body.statement).toMatch(/median latency fell from .* IOPS went from 2,000 to 8,000 and the consumer's CPU went from 0\.20 to 0\.80 cores; CPU per I\/O went from 100 µs to 100 µs\. The extra CPU is work getting done, not a problem/);
  });

  it('flags CPU per I/O that doubled or more', async () => {
    const { body } = await get(costlier);
    expect(body.verdict).toBe('cpu_per_io_up');
    expect(body.statement).toContain('Each I/O costs more CPU than before');
  });

  it('answers 404 for a volume without an applied policy and for another tenant', async () => {
    expect((await get(unapplied)).status).toBe(404);
    expect(JSON.stringify((await get(unapplied)).body)).toContain('no applied policy change');
    expect((await get(faster, other.api_key)).status).toBe(404);
  });
});
