/**
 * Fleet benchmark cohorts for the portal's tests, as the Flink jobs leave them for
 * fleet_benchmarks() (docs/benchmarks.md): 1 d volume rollups over the 8 days of the window,
 * working sets (window 24h) and recommendations (the tier media). The caller's tenant gets a
 * read-heavy NVMe volume and a mixed RAM volume, each in a cohort with four peer tenants of four
 * other owner e-mail domains (verified owners): 5 actors, published; and a write-heavy volume
 * without a recommendation alone in its cohort: not published.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { TestTenants } from "@tierwise/common/testing";

/** Front-end I/Os per volume and day (a tenant counts with 1 000 on 7 days). */
const OPS_PER_DAY = 10_000;
const CAPACITY = 16 * 2 ** 30;
/** Days of data ending today (UTC): today and the 7 days before, the whole window. */
const DAYS = 8;

/** One volume's cohort and figures: read share, working set / capacity, the latency bucket of its I/O (METRICS.md bounds). */
interface VolumeSpec {
  media: "ram" | "nvme" | "none";
  readShare: number;
  wssPerCapacity: number;
  bucket: number;
  /** An ioLength bin of 64 KiB writes, in no other tenant's rollups (a latency bin the cohort does not publish). */
  ownWriteBin?: boolean;
}

export interface BenchmarkSeed {
  /** The peers (created here) and their owners; `clean` deletes them. */
  peers: TestTenants;
  users: string[];
  /** The caller's volumes by cohort. */
  volumes: { readHeavy: string; mixed: string; writeHeavy: string };
}

/** 20 latency bucket counts: `n` I/Os in `bucket`. */
const latency = (bucket: number, n: number) => Array.from({ length: 20 }, (_, i) => (i === bucket ? n : 0));

/** A volume of `tenantId` with DAYS of 1 d rollups, its 24h working set and (unless media none) a recommendation. */
async function seedVolume(db: pg.Pool, tenantId: string, spec: VolumeSpec): Promise<string> {
  const volumeId = randomBytes(8).toString("hex");
  const reads = Math.round(spec.readShare * OPS_PER_DAY);
  const writes = OPS_PER_DAY - reads;
  const latencyUs = {
    read: { "4096": latency(spec.bucket, reads) },
    write: spec.ownWriteBin ? { "65536": latency(spec.bucket + 2, writes) } : { "4096": latency(spec.bucket + 1, writes) },
  };
  await db.query(
    `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes, write_bytes,
                                 cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us)
     SELECT $1, 'volume', $2, '1d', date_trunc('day', now(), 'UTC') - make_interval(days => d), 1, $3::bigint, $4::bigint, $3::bigint * 4096, $4::bigint * 4096, 0, 0, 0, 0, 0, 0, $5, $6
       FROM generate_series(0, $7::int - 1) AS d`,
    [tenantId, volumeId, reads, writes, CAPACITY, latencyUs, DAYS],
  );
  await db.query(
    `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes, wss_write_bytes,
                                      sampled_references, sampling_rate)
     VALUES ($1, $2, '24h', now() - interval '1 day', now(), $3, 0, 0, 1000, 0.01)`,
    [tenantId, volumeId, Math.round(spec.wssPerCapacity * CAPACITY)],
  );
  if (spec.media !== "none") {
    await db.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation)
       VALUES ($1, $2, 1073741824, $3, 'write-through', 0.8, 0.9, 0.81, '{}', 'benchmark test')`,
      [tenantId, volumeId, spec.media],
    );
  }
  return volumeId;
}

/** Seeds the caller's tenant (which exists, with a verified owner) and four peers, as tierwise_owner. */
export async function seedBenchmarks(callerTenantId: string): Promise<BenchmarkSeed> {
  const peers = new TestTenants();
  const users: string[] = [];
  const db = peers.owner;
  for (const [i, share] of [0.72, 0.78, 0.86, 0.94].entries()) {
    const tenant = await peers.create(`web-bench-${i}`);
    const user = await db.query<{ id: string }>("INSERT INTO users (email, display_name, email_verified_at) VALUES ($1, 'benchmark peer', now()) RETURNING id", [
      `owner@peer-${randomBytes(4).toString("hex")}.example`,
    ]);
    users.push(user.rows[0].id);
    await db.query("INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')", [tenant.tenant_id, user.rows[0].id]);
    await seedVolume(db, tenant.tenant_id, { media: "nvme", readShare: share, wssPerCapacity: 0.25 * (i + 1), bucket: 6 + i });
    await seedVolume(db, tenant.tenant_id, { media: "ram", readShare: share - 0.3, wssPerCapacity: 0.5 * (i + 1), bucket: 7 });
  }
  const volumes = {
    readHeavy: await seedVolume(db, callerTenantId, { media: "nvme", readShare: 0.8, wssPerCapacity: 0.6, bucket: 8, ownWriteBin: true }),
    mixed: await seedVolume(db, callerTenantId, { media: "ram", readShare: 0.5, wssPerCapacity: 1.5, bucket: 8 }),
    writeHeavy: await seedVolume(db, callerTenantId, { media: "none", readShare: 0.1, wssPerCapacity: 0.3, bucket: 9 }),
  };
  return { peers, users, volumes };
}

/** Deletes what seedBenchmarks made: the caller's rows in its tables, the peers and their owners. */
export async function dropBenchmarks(seed: BenchmarkSeed, callerTenantId: string): Promise<void> {
  for (const table of ["metric_rollups", "volume_working_sets", "recommendations"]) {
    await seed.peers.owner.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [callerTenantId]);
  }
  await seed.peers.owner.query("DELETE FROM users WHERE id = ANY($1)", [seed.users]);
  await seed.peers.cleanUp();
}
