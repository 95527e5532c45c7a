/** GET /v1/rollups over HTTP on the real PostgreSQL: series per scope id, percentiles from merged buckets, validation. */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RollupsDto } from '../src/benchmarks/rollups.dto.js';
import { startApi } from './support/live-api.js';

describe('GET /v1/rollups (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  const [v1, v2] = [hexId(), hexId()];
  const hour = '2026-11-20T10:00:00.000Z';

  const get = async (query: string, key = tenant.api_key) =>
    fetch(`${url}/v1/rollups?${query}`, { headers: { authorization: `Bearer ${key}` } });

  async function insert(t: ProvisionedTenant, volumeId: string, windowStart: string, reads: number, buckets: number[]) {
    await tenants.owner.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes,
                                   write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                   occupancy_bytes, capacity_bytes, latency_us)
       VALUES ($1, 'volume', $2, '1h', $3, 1, $4, 0, $4::bigint * 4096, 0, 0, 0, 0, 0, 0, 0, 1073741824, $5)`,
      [t.tenant_id, volumeId, windowStart, reads, { read: { '4096': buckets } }],
    );
  }

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [tenant, other] = [await tenants.create('rollups'), await tenants.create('rollups-other')];
    const b = (i: number, n: number) => Array.from({ length: 20 }, (_, k) => (k === i ? n : 0));
    await insert(tenant, v1, hour, 100, b(8, 100)); // all in (200, 500] µs
    await insert(tenant, v1, '2026-11-20T11:00:00Z', 50, b(6, 50)); // (50, 100] µs
    await insert(tenant, v2, hour, 7, b(9, 7));
    await insert(other, v1, hour, 999_999, b(12, 999_999));
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it("returns the tenant's series per volume with percentiles from the window's histogram", async () => {
    const response = await get('scope=volume&resolution=1h&from=2026-11-20T00:00:00Z&to=2026-11-21T00:00:00Z');
    expect(response.status).toBe(200);
    const body = (await response.json()) as RollupsDto;
    expect(body).toMatchObject({ scope: 'volume', resolution: '1h', window_seconds: 3600, truncated: false });
    const byId = Object.fromEntries(body.series.map((s) => [s.scope_id, s.points]));
    expect(Object.keys(byId).sort()).toEqual([v1, v2].sort());
    expect(byId[v1].map((p) => [p.window_start, p.read_ops])).toEqual([[hour, 100], ['2026-11-20T11:00:00.000Z', 50]]);
    expect(byId[v1][0].latency).toEqual([{ direction: 'read', size_bin: '4096', count: 100, p50_us: 350, p95_us: 485, p99_us: 497 }]);
    expect(JSON.stringify(body)).not.toContain('999999');
  });

  it("serves a volume's 10 s windows from its interval rows, and the 10 s rollup rows written before them", async () => {
    const interval = async (volumeId: string, start: string, reads: number, latency: object | null) =>
      tenants.owner.query(
        `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops, read_bytes,
                                         write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                         occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu)
         VALUES ($1, $2, $3, 10, $4, 0, $4::bigint * 4096, 0, 0, 0, 0, 0, 0, 0, 0, $5, $6, $6, $6)`,
        [tenant.tenant_id, volumeId, start, reads, latency, latency && {}],
      );
    const b = Array.from({ length: 20 }, (_, k) => (k === 8 ? 40 : 0));
    // An hour ago, within every retention (the interval rows' documents end with the 10 s windows', db migration 910).
    const base = Math.floor(Date.now() / 10_000) * 10_000 - 3_600_000;
    const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
    await interval(v1, at(3), 40, { read: { '4096': b } });
    await interval(v1, at(13), 9, null); // written before migration 905: its window is a rollup row
    await tenants.owner.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes,
                                   write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                   occupancy_bytes, capacity_bytes, latency_us)
       VALUES ($1, 'volume', $2, '10s', $3, 1, 9, 0, 36864, 0, 0, 0, 0, 0, 0, 0, 0, '{}')`,
      [tenant.tenant_id, v1, at(10)],
    );
    const body = (await (await get(`scope=volume&resolution=10s&scope_id=${v1}&from=${at(0)}&to=${at(60)}`)).json()) as RollupsDto;
    expect(body.series.map((s) => s.points.map((p) => [p.window_start, p.read_ops]))).toEqual([[[at(3), 40], [at(10), 9]]]);
    expect(body.series[0].points[0].latency).toEqual([{ direction: 'read', size_bin: '4096', count: 40, p50_us: 350, p95_us: 485, p99_us: 497 }]);
  });

  it('filters by scope_id and rejects malformed queries with 400', async () => {
    const one = (await (await get(`scope=volume&resolution=1h&scope_id=${v2}&from=2026-11-20T00:00:00Z`)).json()) as RollupsDto;
    expect(one.series.map((s) => s.scope_id)).toEqual([v2]);
    for (const bad of ['resolution=5m', 'scope=rack', 'from=yesterday', 'from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z', 'scope_id=a;b']) {
      const response = await get(bad);
      expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
      expect(await response.json()).toMatchObject({ code: 'bad_request' });
    }
  });
});
