/**
 * GET /v1/benchmarks over HTTP on the real PostgreSQL: a tenant counts in a cohort only with a
 * verified owner and 7 days of data, once per actor (its owner's e-mail domain); cohorts of at
 * least 5 actors are published as quartiles with Laplace noise that repeated calls do not change,
 * smaller ones are not (the sybil cohort of issue 16 finding 5 among them), each tenant sees its
 * own figures and its band among the published quartiles, and no answer carries another
 * tenant's volume ids or own figures.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadEnv, type ProvisionedTenant } from '@tierwise/common';
import { hexId, TestTenants } from '@tierwise/common/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchmarksDto, ScalarStandingDto } from '../src/benchmarks/benchmarks.dto.js';
import { startApi } from './support/live-api.js';

interface Member {
  tenant: ProvisionedTenant;
  volumeId: string;
  readShare: number;
}

interface MemberSpec {
  name: string;
  /** The owner's e-mail address; `undefined`: a fresh domain of its own (an independent actor). */
  email?: string;
  verified?: boolean;
  media: 'ram' | 'nvme' | 'none';
  readShare: number;
  wssPerCapacity?: number;
  /** Latency bucket of every read (METRICS.md bounds, e.g. 8: 200..500 µs). */
  bucket?: number;
  /** Days with data, ending today (UTC): 8 fill the 7-day window (today and the 7 days before). */
  days?: number;
}

const CAPACITY = 16 * 2 ** 30;
/** Front-end I/Os per volume and day (the 1 000 a day needs to count, and more). */
const OPS_PER_DAY = 10_000;
const READ_SHARE_BOUNDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
/** 20 latency bucket counts (METRICS.md bounds): `n` I/Os in bucket `bucket`. */
const latency = (bucket: number, n: number): number[] => Array.from({ length: 20 }, (_, i) => (i === bucket ? n : 0));
const quartiles = (s: ScalarStandingDto) => [s.cohort_p25, s.cohort_p50, s.cohort_p75];

describe('GET /v1/benchmarks (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  const users: string[] = [];
  let app: NestExpressApplication;
  let url: string;
  const cohort: Member[] = [];
  let alone: Member;
  const sybils: Member[] = [];
  let victim: Member;
  const freeMailSybils: Member[] = [];
  let freeMailVictim: Member;
  const young: Member[] = [];
  const unverified: Member[] = [];

  /** A tenant whose owner has `spec.email`, with one volume's 1 d rollups, working set and recommendation. */
  async function member(spec: MemberSpec): Promise<Member> {
    const days = spec.days ?? 8;
    const m = { tenant: await tenants.create(spec.name), volumeId: hexId(), readShare: spec.readShare };
    const email = spec.email ?? `owner@${spec.name}-${hexId()}.example`;
    const user = await tenants.owner.query<{ id: string }>(
      `INSERT INTO users (email, display_name, email_verified_at) VALUES ($1, 'benchmark test', CASE WHEN $2 THEN now() END) RETURNING id`,
      [email, spec.verified ?? true],
    );
    users.push(user.rows[0].id);
    await tenants.owner.query(`INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')`, [m.tenant.tenant_id, user.rows[0].id]);
    const reads = Math.round(spec.readShare * OPS_PER_DAY);
    await tenants.owner.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes,
                                   write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                   occupancy_bytes, capacity_bytes, latency_us)
       SELECT $1, 'volume', $2, '1d', date_trunc('day', now(), 'UTC') - make_interval(days => d), 1, $3, $4, 0, 0, 0, 0, 0, 0, 0, 0, $5, $6
         FROM generate_series(0, $7::int - 1) AS d`,
      [m.tenant.tenant_id, m.volumeId, reads, OPS_PER_DAY - reads, CAPACITY, { read: { '4096': latency(spec.bucket ?? 8, reads) } }, days],
    );
    await tenants.owner.query(
      `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes,
                                        wss_write_bytes, sampled_references, sampling_rate)
       VALUES ($1, $2, '24h', now() - interval '1 day', now(), $3, 0, 0, 1000, 0.01)`,
      [m.tenant.tenant_id, m.volumeId, Math.round((spec.wssPerCapacity ?? 0.5) * CAPACITY)],
    );
    if (spec.media !== 'none') {
      await tenants.owner.query(
        `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio,
                                      target_hit_ratio, inputs, explanation)
         VALUES ($1, $2, 1073741824, $3, 'write-through', 0.8, 0.9, 0.81, '{}', 'benchmark test')`,
        [m.tenant.tenant_id, m.volumeId, spec.media],
      );
    }
    return m;
  }

  async function benchmarks(m: Member): Promise<{ body: BenchmarksDto; text: string }> {
    const response = await fetch(`${url}/v1/benchmarks`, { headers: { authorization: `Bearer ${m.tenant.api_key}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    return { body: JSON.parse(text) as BenchmarksDto, text };
  }

  /** `m`'s only cohort is not published: its own figures, and no cohort figure, count or band. */
  async function expectUnpublished(m: Member, media: string, workloadClass: string): Promise<void> {
    const { body } = await benchmarks(m);
    expect(body.cohorts).toEqual([
      expect.objectContaining({
        media,
        workload_class: workloadClass,
        published: false,
        tenant_count: null,
        volume_ids: [m.volumeId],
        read_share: { own: expect.closeTo(m.readShare, 6), cohort_p25: null, cohort_p50: null, cohort_p75: null, rank_band: null },
        wss_per_capacity: expect.objectContaining({ cohort_p25: null, cohort_p50: null, cohort_p75: null, rank_band: null }),
      }),
    ]);
    expect(body.cohorts[0].latency).toEqual([
      expect.objectContaining({ direction: 'read', size_bin: '4096', cohort_p50_us: null, cohort_p95_us: null, cohort_p99_us: null }),
    ]);
  }

  beforeAll(async () => {
    ({ app, url } = await startApi());
    const shares = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65];
    for (const [i, share] of shares.entries()) {
      cohort.push(await member({ name: `bench-${i}`, media: 'ram', readShare: share, wssPerCapacity: 0.2 * (i + 1), bucket: 7 + (i % 3) }));
    }
    alone = await member({ name: 'bench-alone', media: 'ram', readShare: 0.1, bucket: 12 });
    // Issue 16 finding 5: one actor's four tenants (its domain and subdomains of it) around a victim.
    const attacker = `attacker-${hexId()}.example`;
    for (const [i, share] of [0.5, 0.55, 0.6, 0.643].entries()) {
      sybils.push(await member({ name: `bench-sybil-${i}`, email: `sybil-${i}@${['', 'a.', 'b.', 'c.d.'][i]}${attacker}`, media: 'nvme', readShare: share }));
    }
    victim = await member({ name: 'bench-victim', media: 'nvme', readShare: 0.5195 });
    // Four free mailboxes are one actor too.
    for (const [i, provider] of ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me'].entries()) {
      freeMailSybils.push(await member({ name: `bench-free-${i}`, email: `sybil-${hexId()}@${provider}`, media: 'nvme', readShare: 0.75 + 0.05 * i }));
    }
    freeMailVictim = await member({ name: 'bench-free-victim', media: 'nvme', readShare: 0.8 });
    // Five actors, but one of them has only 6 days of data; five again, but one owner never verified the address.
    for (const i of [0, 1, 2, 3, 4]) {
      young.push(await member({ name: `bench-young-${i}`, media: 'nvme', readShare: 0.1 + 0.04 * i, days: i === 4 ? 6 : 8 }));
      unverified.push(await member({ name: `bench-unverified-${i}`, media: 'none', readShare: 0.75 + 0.04 * i, verified: i !== 4 }));
    }
  });

  afterAll(async () => {
    await app.close();
    await tenants.owner.query('DELETE FROM users WHERE id = ANY($1)', [users]);
    await tenants.cleanUp();
  });

  it("publishes a cohort of 6 actors as noisy quartiles with the caller's band and nobody else's figures", async () => {
    const me = cohort[2];
    const { body, text } = await benchmarks(me);
    expect(body).toMatchObject({ window_days: 7, min_tenants: 5, min_days: 7, epsilon: 1 });
    expect(body.cohorts).toHaveLength(1);
    const c = body.cohorts[0];
    expect(c).toMatchObject({ media: 'ram', workload_class: 'mixed', published: true, volume_ids: [me.volumeId] });
    expect(c.tenant_count).toBeGreaterThanOrEqual(5);
    expect(c.read_share.own).toBeCloseTo(0.5, 6);
    expect(c.wss_per_capacity.own).toBeCloseTo(0.6, 6);
    for (const s of [c.read_share, c.wss_per_capacity]) {
      const [p25, p50, p75] = quartiles(s).map(Number);
      expect(p25).toBeLessThanOrEqual(p50);
      expect(p50).toBeLessThanOrEqual(p75);
      // The band is read off the published quartiles and the caller's own value, nothing else.
      const bands = { below_p25: [-Infinity, p25], p25_p50: [p25, p50], p50_p75: [p50, p75], above_p75: [p75, Infinity] };
      const [lo, hi] = bands[s.rank_band!];
      expect(s.own).toBeGreaterThanOrEqual(lo);
      expect(s.own).toBeLessThan(hi);
    }
    // Noisy: the published median is not the median of the 6 shares' histogram without noise.
    const exact = await tenants.owner.query<{ q: number }>('SELECT histogram_quantile($1, bucket_counts($1, $2), 0.5) AS q', [
      READ_SHARE_BOUNDS,
      cohort.map((m) => m.readShare),
    ]);
    expect(exact.rows[0].q).toBeCloseTo(0.5, 6);
    expect(Math.abs(c.read_share.cohort_p50! - exact.rows[0].q)).toBeGreaterThan(1e-9);
    const [read4k] = c.latency;
    expect(read4k).toMatchObject({ direction: 'read', size_bin: '4096', own_p50_us: 750 });
    expect(read4k.cohort_p50_us).toBeGreaterThan(0);
    expect(read4k.cohort_p99_us).toBeGreaterThanOrEqual(read4k.cohort_p50_us!);

    for (const other of cohort.filter((o) => o !== me).concat(alone, victim)) {
      expect(text).not.toContain(other.volumeId);
      expect(text).not.toContain(other.tenant.tenant_id);
    }
  });

  it('publishes the same noisy figures on every call and to every member (the noise is not drawn per query)', async () => {
    const [first, again, other] = await Promise.all([benchmarks(cohort[0]), benchmarks(cohort[0]), benchmarks(cohort[5])]);
    const published = ({ body: { cohorts } }: { body: BenchmarksDto }) =>
      cohorts.map((c) => [c.tenant_count, quartiles(c.read_share), quartiles(c.wss_per_capacity), c.latency.map((l) => [l.cohort_p50_us, l.cohort_p95_us, l.cohort_p99_us])]);
    expect(published(again)).toEqual(published(first));
    expect(published(other)).toEqual(published(first));
  });

  it('does not publish a cohort of fewer than 5 tenants, but shows the caller its own figures', async () => {
    await expectUnpublished(alone, 'ram', 'write-heavy');
  });

  it("does not publish the sybil cohort (4 tenants of one actor + the victim): no quartiles, count or band for anyone", async () => {
    for (const m of [victim, ...sybils]) await expectUnpublished(m, 'nvme', 'mixed');
  });

  it('counts tenants whose owners use free mail providers as one actor', async () => {
    for (const m of [freeMailVictim, ...freeMailSybils]) await expectUnpublished(m, 'nvme', 'read-heavy');
  });

  it('counts a tenant only after 7 days of data and with a verified owner', async () => {
    for (const m of young) await expectUnpublished(m, 'nvme', 'write-heavy');
    for (const m of unverified) await expectUnpublished(m, 'none', 'read-heavy');
  });

  it('keeps the noise key and the noise function from tierwise_app', async () => {
    const appDb = new pg.Client({ connectionString: loadEnv(['TIERWISE_PG_APP_URL']).TIERWISE_PG_APP_URL });
    await appDb.connect();
    try {
      await expect(appDb.query('SELECT secret FROM benchmark_noise_key')).rejects.toThrow(/permission denied/);
      await expect(appDb.query("SELECT benchmark_noisy_counts('k', ARRAY[1]::float8[])")).rejects.toThrow(/permission denied/);
    } finally {
      await appDb.end();
    }
  });
});
