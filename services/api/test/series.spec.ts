/**
 * GET /v1/series, /v1/fleet/overview and the working-set history over HTTP on the real
 * PostgreSQL: the resolution chosen from range and width, points that add the windows' counts
 * and merge their histograms (checked against the db's histogram_quantile), min/max of single
 * windows, block sizes, the custom breakdown, tenancy and validation.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { coarserWindows, hexId, insertRollups, type RollupRow, syntheticWindows, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quantile } from '../src/series/histogram.js';
import type { OverviewDto } from '../src/series/overview.dto.js';
import type { SeriesDto } from '../src/series/series.dto.js';
import type { WorkingSetHistoryDto } from '../src/series/working-set-history.dto.js';
import { startApi } from './support/live-api.js';

const SIX_HOURS_AGO = Date.now() - 6 * 3600_000; // read once: two reads of the clock a millisecond apart put START 1 ms before the hour
const START = new Date(SIX_HOURS_AGO - (SIX_HOURS_AGO % 3600_000)); // an hour boundary 6-7 h ago
const HOUR = 360; // 10 s windows
const iso = (ms: number) => new Date(ms).toISOString();

describe('server-side downsampled series (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  const [volume, quiet, host] = [hexId(), hexId(), hexId()];
  let tenSecond: RollupRow[];

  const get = async <T>(path: string, key = tenant.api_key) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as T };
  };
  /** The SQL function's quantile of a histogram (the reference the api's merge must match). */
  const sqlQuantile = async (counts: number[], q: number) =>
    (await tenants.owner.query<{ v: number }>('SELECT histogram_quantile(rollup_latency_bounds_us(), $1::float8[], $2) AS v', [counts, q])).rows[0].v;
  /** The 10 s windows in [from, from + seconds). */
  const windowsIn = (from: number, seconds: number) =>
    tenSecond.filter((r) => Date.parse(r.window_start) >= from && Date.parse(r.window_start) < from + seconds * 1000);
  const merged = (rows: RollupRow[], pick: (direction: string, bin: string) => boolean) => {
    const out = new Array<number>(20).fill(0);
    for (const r of rows) for (const [d, bins] of Object.entries(r.latency_us)) for (const [b, c] of Object.entries(bins)) if (pick(d, b)) c.forEach((x, i) => (out[i] += x));
    return out;
  };

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [tenant, other] = [await tenants.create('series'), await tenants.create('series-other')];
    tenSecond = syntheticWindows(tenant.tenant_id, 'volume', volume, START, HOUR, 500, { writeBack: true, cpu: true });
    const quietRows = syntheticWindows(tenant.tenant_id, 'volume', quiet, START, HOUR, 20);
    const tenantRows = tenSecond.map((r, i) => ({
      ...r,
      scope: 'tenant' as const,
      scope_id: tenant.tenant_id,
      volumes: 2,
      read_ops: r.read_ops + quietRows[i].read_ops,
      write_ops: r.write_ops + quietRows[i].write_ops,
      read_cache_hits: r.read_cache_hits + quietRows[i].read_cache_hits,
      read_cache_misses: r.read_cache_misses + quietRows[i].read_cache_misses,
    }));
    await tenants.owner.query('INSERT INTO hosts (tenant_id, host_id, display_name) VALUES ($1, $2, $3)', [tenant.tenant_id, host, 'esx-01']);
    for (const [id, name] of [[volume, 'sql-data'], [quiet, 'logs']]) {
      await tenants.owner.query('INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4)', [tenant.tenant_id, id, host, name]);
    }
    await tenants.owner.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, write_back_copies, tier_bytes, media, eviction, source,
                                    updated_by_kind, updated_by_id, applied_version, applied_at)
       VALUES ($1, $2, 1, 'write-back', 1, 4294967296, 'nvme', 'lru', 'manual', 'api_key', gen_random_uuid(), 1, now())`,
      [tenant.tenant_id, volume],
    );
    const otherRows = syntheticWindows(other.tenant_id, 'volume', volume, START, HOUR, 999_999);
    for (const rows of [tenSecond, quietRows, tenantRows, otherRows]) await insertRollups(tenants.owner, [...rows, ...coarserWindows(rows)]);
  });

  afterAll(async () => {
    await tenants.owner.query('DELETE FROM volume_policies WHERE tenant_id = $1', [tenant.tenant_id]);
    await tenants.owner.query('DELETE FROM volumes WHERE tenant_id = $1', [tenant.tenant_id]);
    await tenants.owner.query('DELETE FROM hosts WHERE tenant_id = $1', [tenant.tenant_id]);
    await app.close();
    await tenants.cleanUp();
  });

  it('reads 1 min rollups for an hour at 30 px and adds the windows of each 2-minute point', async () => {
    const from = START.getTime();
    const { status, body } = await get<SeriesDto>(`/v1/series?scope=volume&scope_id=${volume}&from=${iso(from)}&to=${iso(from + 3600_000)}&width=30`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resolution: '1m', window_seconds: 60, bucket_seconds: 120, windows_read: 60, size_bins: ['4096', '8192', '65536'] });
    expect(body.points).toHaveLength(30);
    for (const [i, p] of body.points.entries()) {
      const rows = windowsIn(from + i * 120_000, 120);
      expect(p.t).toBe(iso(from + i * 120_000));
      expect(p.read_iops).toBeCloseTo(rows.reduce((s, r) => s + r.read_ops, 0) / 120, 2);
      expect(p.write_bytes_per_s).toBeCloseTo(rows.reduce((s, r) => s + r.write_bytes, 0) / 120, 2);
    }
    // Percentiles of the added counts, not averages of the windows' percentiles.
    const last = windowsIn(from + 29 * 120_000, 120); // holds the burst window (index 359)
    const p = body.points[29];
    expect(p.latency!.p99_us).toBeCloseTo(await sqlQuantile(merged(last, () => true), 0.99), 2);
    expect(p.write_latency!.p50_us).toBeCloseTo(await sqlQuantile(merged(last, (d) => d === 'write'), 0.5), 2);
    // The burst lifts the point's max above its mean: the 1 min window holding it.
    const burstMinute = tenSecond.slice(354, 360);
    expect(p.iops_max).toBeCloseTo(burstMinute.reduce((s, r) => s + r.read_ops + r.write_ops, 0) / 60, 2);
    expect(p.iops_max).toBeGreaterThan(1.1 * (p.read_iops + p.write_iops));
  });

  it('with resolution=10s keeps the single 10 s burst as the point max and reads every window', async () => {
    const from = START.getTime();
    const { body } = await get<SeriesDto>(`/v1/series?scope_id=${volume}&from=${iso(from)}&to=${iso(from + 3600_000)}&width=30&resolution=10s`);
    expect(body).toMatchObject({ resolution: '10s', bucket_seconds: 120, windows_read: HOUR });
    const burst = tenSecond[359];
    expect(body.points[29].iops_max).toBeCloseTo((burst.read_ops + burst.write_ops) / 10, 2);
    expect(body.points[29].latency!.p99_max_us).toBeCloseTo(await sqlQuantile(merged([burst], () => true), 0.99), 2);
  });

  it('gives the block-size distribution, latency by block size and the custom breakdown', async () => {
    const from = START.getTime();
    const { body } = await get<SeriesDto>(
      `/v1/series?scope_id=${volume}&from=${iso(from)}&to=${iso(from + 600_000)}&width=10&sizes=true&direction=write&size_bins=65536`,
    );
    expect(body).toMatchObject({ resolution: '1m', bucket_seconds: 60 });
    for (const [i, p] of body.points.entries()) {
      const rows = windowsIn(from + i * 60_000, 60);
      for (const direction of ['read', 'write', 'all'] as const) {
        const shares = p.sizes.filter((s) => s.direction === direction).reduce((s, x) => s + x.share, 0);
        expect(shares).toBeCloseTo(1, 4);
      }
      const cell = p.sizes.find((s) => s.direction === 'all' && s.size_bin === '65536')!;
      expect(cell.p95_us).toBeCloseTo(await sqlQuantile(merged(rows, (_d, b) => b === '65536'), 0.95), 2);
      const writes64k = merged(rows, (d, b) => d === 'write' && b === '65536');
      expect(p.selection!.ops_per_s).toBeCloseTo(writes64k.reduce((s, x) => s + x, 0) / 60, 2);
      expect(p.selection!.p99_us).toBeCloseTo(await sqlQuantile(writes64k, 0.99), 2);
      // Every read was served by the tier or the datastore; every write-back write by the journal and the peer.
      expect(p.sources.cache!.read_iops + p.sources.datastore!.read_iops).toBeCloseTo(p.read_iops, 2);
      expect(p.sources.peer!.write_bytes_per_s).toBeCloseTo(p.write_bytes_per_s, 2);
    }
  });

  it("puts the host's and the consumer's CPU beside the I/O as ratios of summed CPU time, at 10 s and 1 min alike", async () => {
    const from = START.getTime();
    for (const resolution of ['10s', '1m']) {
      const { body } = await get<SeriesDto>(`/v1/series?scope_id=${volume}&from=${iso(from)}&to=${iso(from + 600_000)}&width=10&resolution=${resolution}`);
      expect(body.points).toHaveLength(10);
      for (const [i, p] of body.points.entries()) {
        const rows = windowsIn(from + i * 60_000, 60);
        const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
        const all = sum((r) => Object.values(r.cpu!.host_us!).reduce((a, b) => a + b, 0));
        const consumer = sum((r) => r.cpu!.consumer!.process.user_us + r.cpu!.consumer!.process.system_us);
        expect(p.cpu).toMatchObject({ host_cpus: 2, consumer_kind: 'process' });
        // The api rounds these to 4 decimals: within half a unit of the last place (toBeCloseTo's
        // bound is strict, and the day's sine puts some hours' values on the .5 boundary).
        expect(Math.abs(p.cpu!.host_busy - sum((r) => r.cpu!.host_us!.user + r.cpu!.host_us!.system) / all)).toBeLessThanOrEqual(0.5e-4 + 1e-12);
        expect(p.cpu!.host_iowait).toBeCloseTo(0.02, 4);
        expect(Math.abs(p.cpu!.consumer_cores! - consumer / 60e6)).toBeLessThanOrEqual(0.5e-4 + 1e-12);
        expect(p.cpu!.cpu_us_per_io).toBeCloseTo(consumer / sum((r) => r.read_ops + r.write_ops), 2);
      }
    }
    const quietSeries = await get<SeriesDto>(`/v1/series?scope_id=${quiet}&from=${iso(from)}&to=${iso(from + 600_000)}&width=10`);
    expect(quietSeries.body.points[0].cpu).toBeNull();
  });

  it('breaks the I/O down by storage type (VM observed, cache, peer, datastore) with I/Os, bytes and latency at every resolution', async () => {
    const from = START.getTime();
    const hour = `from=${iso(from)}&to=${iso(from + 3600_000)}&width=10`;
    /** The hour's 10 s windows' counts of one source and direction (the reference). */
    const sourceSum = (rows: RollupRow[], source: string, direction: string) => {
      const sum = { ops: 0, bytes: 0, latency: new Array<number>(20).fill(0) };
      for (const r of rows) {
        const cell = r.sources[source]?.[direction];
        if (!cell) continue;
        sum.ops += cell.ops;
        sum.bytes += cell.bytes;
        cell.latency_us.forEach((c, i) => (sum.latency[i] += c));
      }
      return sum;
    };
    for (const resolution of ['10s', '1m', '1h']) {
      const { body } = await get<SeriesDto>(`/v1/series?scope_id=${volume}&${hour}&resolution=${resolution}`);
      expect(body.resolution).toBe(resolution);
      expect(body.points.length).toBeGreaterThan(0);
      for (const p of body.points) {
        const rows = windowsIn(Date.parse(p.t), body.bucket_seconds);
        const seconds = p.windows * body.window_seconds;
        const peer = sourceSum(rows, 'peer', 'write');
        expect(peer.ops).toBeGreaterThan(0);
        expect(p.sources.peer!.write_iops).toBeCloseTo(peer.ops / seconds, 2);
        expect(p.sources.peer!.bytes_per_s).toBeCloseTo(peer.bytes / seconds, 2);
        expect(p.sources.peer!.read_iops).toBe(0);
        expect(p.sources.peer!.latency!.p99_us).toBeCloseTo(await sqlQuantile(peer.latency, 0.99), 2);
        expect(p.sources.cache!.read_bytes_per_s).toBeCloseTo(sourceSum(rows, 'cache', 'read').bytes / seconds, 2);
        expect(p.sources.cache!.write_iops).toBeCloseTo(sourceSum(rows, 'cache', 'write').ops / seconds, 2);
        expect(p.sources.datastore!.write_iops).toBe(0);
        expect(p.sources.datastore!.latency!.p50_us).toBeCloseTo(await sqlQuantile(sourceSum(rows, 'datastore', 'read').latency, 0.5), 2);
        expect(p.sources.vm_observed).toMatchObject({ read_iops: p.read_iops, write_bytes_per_s: p.write_bytes_per_s, latency: p.latency });
        // The tier answers faster than the VM sees on average, the datastore slower.
        expect(p.sources.cache!.latency!.p50_us).toBeLessThan(p.latency!.p50_us);
        expect(p.sources.datastore!.latency!.p50_us).toBeGreaterThan(p.latency!.p50_us);
      }
    }
    // A write-through volume sends nothing to peers: its writes reach the datastore.
    const { body } = await get<SeriesDto>(`/v1/series?scope_id=${quiet}&${hour}`);
    expect(body.points[0].sources.peer).toBeNull();
    expect(body.points[0].sources.datastore!.write_iops).toBeCloseTo(body.points[0].write_iops, 2);
  });

  it("never shows another tenant's windows and rejects malformed queries with 400", async () => {
    const { body } = await get<SeriesDto>(`/v1/series?scope_id=${volume}&from=${iso(START.getTime())}&to=${iso(START.getTime() + 3600_000)}&width=10`);
    expect(Math.max(...body.points.map((p) => p.iops_max))).toBeLessThan(10_000);
    const theirs = await get<SeriesDto>(`/v1/series?scope_id=${volume}&from=${iso(START.getTime())}&to=${iso(START.getTime() + 3600_000)}`, other.api_key);
    expect(Math.min(...theirs.body.points.map((p) => p.iops_min))).toBeGreaterThan(100_000);
    for (const bad of ['scope=volume', 'scope_id=a;b', 'scope=tenant&width=5', 'scope=tenant&width=4001', 'scope=tenant&resolution=5m', 'scope=tenant&size_bins=abc', 'scope=tenant&from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z']) {
      const r = await get<{ code: string }>(`/v1/series?${bad}`);
      expect({ bad, status: r.status, code: r.body.code }).toEqual({ bad, status: 400, code: 'bad_request' });
    }
  });

  it('computes percentiles exactly as the db function does on random histograms', async () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let n = 0; n < 40; n++) {
      const counts = Array.from({ length: 20 }, () => (random() < 0.4 ? 0 : Math.floor(random() * 1000)));
      for (const q of [0.5, 0.95, 0.99]) expect(quantile(counts, q) ?? null).toBeCloseTo((await sqlQuantile(counts, q)) ?? NaN, 9);
    }
  });

  it('overview: I/Os and bytes offloaded, writes accelerated, top volumes and the performance map', async () => {
    const from = START.getTime();
    const { status, body } = await get<OverviewDto>(`/v1/fleet/overview?from=${iso(from)}&to=${iso(from + 3600_000)}`);
    expect(status).toBe(200);
    const quietRows = syntheticWindows(tenant.tenant_id, 'volume', quiet, START, HOUR, 20);
    const all = [...tenSecond, ...quietRows];
    const sum = (rows: RollupRow[], f: (r: RollupRow) => number) => rows.reduce((s, r) => s + f(r), 0);
    expect(body.resolution).toBe('1m');
    expect(body.totals.ios).toBe(sum(all, (r) => r.read_ops + r.write_ops));
    expect(body.totals.bytes_offloaded).toBe(sum(all, (r) => r.read_cache_hits) * 4096);
    expect(body.totals.writes_accelerated).toBe(sum(tenSecond, (r) => r.write_ops)); // only the write-back volume
    expect(body.top_by_iops.map((v) => v.display_name)).toEqual(['sql-data', 'logs']);
    expect(body.hosts).toEqual([expect.objectContaining({ host_id: host, display_name: 'esx-01', ios: body.totals.ios })]);
    expect(body.hosts[0].volumes.map((v) => v.volume_id)).toEqual([volume, quiet]);
  });

  it('working set size over time: one row per minute of estimates, downsampled', async () => {
    const upsert = (end: string, wss: number) =>
      tenants.owner.query(
        `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes,
                                          wss_write_bytes, sampled_references, sampling_rate)
         VALUES ($1, $2, '1h', $3::timestamptz - interval '1 hour', $3, $4, $4, 0, 1000, 0.01)
         ON CONFLICT (tenant_id, volume_id, window_name) DO UPDATE SET window_end = EXCLUDED.window_end, wss_bytes = EXCLUDED.wss_bytes,
           wss_read_bytes = EXCLUDED.wss_read_bytes`,
        [tenant.tenant_id, volume, end, wss],
      );
    const t = START.getTime();
    for (const [minute, wss] of [[0, 100], [0.5, 150], [1, 200], [5, 300]] as const) await upsert(iso(t + minute * 60_000), wss * 2 ** 20);
    const { body } = await get<WorkingSetHistoryDto>(`/v1/volumes/${volume}/working-set/history?window=1h&from=${iso(t)}&to=${iso(t + 600_000)}&width=10`);
    expect(body.bucket_seconds).toBe(60);
    expect(body.points.map((p) => [p.t, p.wss_bytes / 2 ** 20])).toEqual([[iso(t), 150], [iso(t + 60_000), 200], [iso(t + 300_000), 300]]);
  });
});
