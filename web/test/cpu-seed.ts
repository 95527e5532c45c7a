/**
 * Storage-bound CPU (docs/workload.md "Storage-bound CPU", issue 18) for the portal's tests: a host
 * with two volumes whose last hour of rollups the Flink rollup job would have written
 * (@tierwise/common/testing's synthetic workload, with the 1 min, 1 h and 1 d windows):
 * - `accelerated`: its agent applied policy version 3 (s3-fifo on NVMe) five minutes ago. Before
 *   it, the datastore was slow (latency buckets higher), the VMs issued BEFORE's IOPS and
 *   their CPUs waited on I/O; after it, AFTER's IOPS at the tier's latency and more CPU: the work that
 *   slow storage held back. metric_rollups.cpu (db/migrations 855) of each 10 s window, in µs: a
 *   host of HOST_CPUS CPUs BEFORE.host_busy / AFTER.host_busy busy (user 70 %, system 30 %) and in
 *   iowait as given, the rest idle; its consumer process BEFORE / AFTER.consumer_cores cores
 *   (user 75 %, system 25 %). CPU per I/O stays about the same, so the api reads `work_done`.
 * - `replayed`: a replay without CPU time (metric_rollups.cpu '{}') and no policy.
 * Removed with the tenant by analytics-seed.ts' dropAnalytics.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { coarserWindows, insertRollups, syntheticWindows, type RollupRow } from "@tierwise/common/testing";

/** The host's logical CPUs. */
export const HOST_CPUS = 8;
/** The CPU of each side of the change: shares of all the host's CPUs, and the consumer's cores. */
export const BEFORE = { iops: 400, host_busy: 0.2, host_iowait: 0.15, consumer_cores: 1 } as const;
export const AFTER = { iops: 600, host_busy: 0.28, host_iowait: 0.03, consumer_cores: 1.5 } as const;
/** The policy version the agent applied, and how long before the seed's end. */
export const POLICY_VERSION = 3;
const APPLIED_SECONDS_AGO = 300;
const SEEDED_SECONDS = 3600;

export interface CpuSeed {
  hostId: string;
  accelerated: { volumeId: string; name: string };
  replayed: { volumeId: string; name: string };
  appliedAt: Date;
  from: Date;
  /** The end of the seeded windows (10 s aligned). */
  to: Date;
}

/** metric_rollups.cpu of one 10 s window of a side. */
function cpuCells(side: typeof BEFORE | typeof AFTER): NonNullable<RollupRow["cpu"]> {
  const all = HOST_CPUS * 10e6;
  const busy = Math.round(all * side.host_busy);
  const iowait = Math.round(all * side.host_iowait);
  const user = Math.round(busy * 0.7);
  const consumer = side.consumer_cores * 10e6;
  return {
    host_us: { user, nice: 0, system: busy - user, idle: all - busy - iowait, iowait, interrupt: 0, steal: 0 },
    host_wall_us: 10e6,
    consumer: { process: { user_us: consumer * 0.75, system_us: consumer * 0.25, wall_us: 10e6 } },
  };
}

/** `counts` moved `by` buckets up (slower). */
const slower = (counts: number[], by: number) => counts.map((_, i) => (i >= by ? counts[i - by] : 0));

/** Seeds the tenant (which exists already) with the host and volumes above, as tierwise_owner. */
export async function seedCpu(ownerUrl: string, tenantId: string): Promise<CpuSeed> {
  const to = new Date(Math.floor(Date.now() / 10_000) * 10_000);
  const from = new Date(to.getTime() - SEEDED_SECONDS * 1000);
  const appliedAt = new Date(to.getTime() - APPLIED_SECONDS_AGO * 1000);
  const hostId = randomBytes(8).toString("hex");
  const accelerated = { volumeId: randomBytes(8).toString("hex"), name: "pg-data-01" };
  const replayed = { volumeId: randomBytes(8).toString("hex"), name: "replay-01" };

  const before = syntheticWindows(tenantId, "volume", accelerated.volumeId, from, (SEEDED_SECONDS - APPLIED_SECONDS_AGO) / 10, BEFORE.iops);
  for (const row of before) {
    row.cpu = cpuCells(BEFORE);
    for (const bins of Object.values(row.latency_us)) for (const [bin, counts] of Object.entries(bins)) bins[bin] = slower(counts, 2);
  }
  const after = syntheticWindows(tenantId, "volume", accelerated.volumeId, appliedAt, APPLIED_SECONDS_AGO / 10, AFTER.iops);
  for (const row of after) row.cpu = cpuCells(AFTER);
  const replay = syntheticWindows(tenantId, "volume", replayed.volumeId, from, SEEDED_SECONDS / 10, 200);

  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  try {
    await db.query("INSERT INTO hosts (tenant_id, host_id, display_name) VALUES ($1, $2, 'esx-11')", [tenantId, hostId]);
    for (const v of [accelerated, replayed]) {
      await db.query("INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4)", [tenantId, v.volumeId, hostId, v.name]);
    }
    for (const rows of [[...before, ...after], replay]) await insertRollups(db, [...rows, ...coarserWindows(rows)]);
    await db.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, write_back_copies, tier_bytes, media, eviction, source,
         updated_by_kind, updated_by_id, applied_version, applied_at)
       VALUES ($1, $2, $3, 'write-through', NULL, $4, 'nvme', 's3-fifo', 'recommendation', 'api_key', gen_random_uuid(), $3, $5)`,
      [tenantId, accelerated.volumeId, POLICY_VERSION, 4 * 2 ** 30, appliedAt],
    );
  } finally {
    await db.end();
  }
  return { hostId, accelerated, replayed, appliedAt, from, to };
}
