import { randomBytes } from "node:crypto";
import pg from "pg";

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/**
 * One database VM volume as the Flink jobs would leave it after a day of I/O:
 * ~500 IOPS, 80 % reads, mostly 4 KiB and 8 KiB, a 3.25 GiB working set, an LRU miss
 * ratio curve that flattens near 8 GiB, a 2 GiB tier now (77.2 % hit ratio) and a 4 GiB
 * NVMe recommendation (target 90 % of the achievable 90 % hit ratio).
 */
export const VOLUME = {
  displayName: "sql-data-01",
  hostName: "esx-07",
  readOps: 34_560_000,
  writeOps: 8_640_000,
  capacityBytes: 2 * GiB,
  hits: 27_016_000,
  misses: 7_984_000, // hit ratio 27016000 / 35000000 = 0.7719 -> "77.2%"
  wssBytes: 3.25 * GiB, // -> "3.25 GiB"
  wssReadBytes: 2.75 * GiB,
  wssWriteBytes: 1 * GiB,
  /** [direction, vscsiStats ioLength bin label, upper bound bytes or null, ops, mean I/O size bytes] */
  blockSizes: [
    ["read", "512", 512, 380_000, 512],
    ["read", "4096", 4096, 20_736_000, 4096],
    ["read", "8192", 8192, 6_912_000, 8192],
    ["read", "16384", 16384, 2_764_800, 16384],
    ["read", "65536", 65536, 3_110_400, 65536],
    ["read", "131072", 131072, 656_800, 131072],
    ["write", "4095", 4095, 172_800, 3072],
    ["write", "4096", 4096, 5_184_000, 4096],
    ["write", "8192", 8192, 2_160_000, 8192],
    ["write", "65536", 65536, 950_400, 65536],
    ["write", ">524288", null, 172_800, 1 * MiB],
  ] as const,
  /** LRU miss ratio curve, 32 MiB .. 64 GiB doubling (12 points). */
  mrc: [0.93, 0.88, 0.8, 0.66, 0.47, 0.29, 0.21, 0.17, 0.12, 0.105, 0.1, 0.1].map((missRatio, i) => ({
    cache_bytes: 32 * MiB * 2 ** i,
    miss_ratio: missRatio,
  })),
  tierBytes: 4 * GiB,
} as const;

/** What a test needs to reach the fixture: tenant, volume and host ids. */
export interface Seeded {
  tenantId: string;
  volumeId: string;
  hostId: string;
}

const TABLES = [
  "recommendations",
  "volume_mrcs",
  "volume_working_sets",
  "volume_block_sizes",
  "volume_io_stats",
  "volumes",
  "hosts",
  "api_keys",
] as const;

/**
 * Inserts {@link VOLUME} with its I/O totals, block sizes, working set, MRC and recommendation
 * into the tenant `tenantId` (e.g. the organization of a user who signed up), as tierwise_owner.
 * Pseudonymous ids are random hex like the agent's keyed hashes.
 */
export async function seedVolume(ownerUrl: string, tenantId: string): Promise<Seeded> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    const volumeId = randomBytes(8).toString("hex");
    const hostId = randomBytes(8).toString("hex");
    await client.query("INSERT INTO hosts (tenant_id, host_id, display_name) VALUES ($1, $2, $3)", [tenantId, hostId, VOLUME.hostName]);
    await client.query("INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4)", [
      tenantId,
      volumeId,
      hostId,
      VOLUME.displayName,
    ]);
    const bytesOf = (direction: string) =>
      VOLUME.blockSizes.filter(([d]) => d === direction).reduce((sum, [, , , ops, size]) => sum + ops * size, 0);
    await client.query(
      `INSERT INTO volume_io_stats (tenant_id, volume_id, first_interval, last_interval, read_ops, write_ops, read_bytes,
         write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, capacity_bytes)
       VALUES ($1, $2, now() - interval '24 hours', now() - interval '10 seconds', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [tenantId, volumeId, VOLUME.readOps, VOLUME.writeOps, bytesOf("read"), bytesOf("write"), VOLUME.hits, VOLUME.misses,
        22_800_000, 5_200_000, 96 * GiB, VOLUME.capacityBytes],
    );
    for (const [direction, label, upper, ops, size] of VOLUME.blockSizes) {
      await client.query(
        `INSERT INTO volume_block_sizes (tenant_id, volume_id, direction, bin_label, bin_upper_bytes, ops, bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [tenantId, volumeId, direction, label, upper, ops, ops * size],
      );
    }
    await client.query(
      `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes,
         wss_write_bytes, sampled_references, sampling_rate)
       VALUES ($1, $2, 'all', now() - interval '24 hours', now(), $3, $4, $5, 432000, 0.01)`,
      [tenantId, volumeId, VOLUME.wssBytes, VOLUME.wssReadBytes, VOLUME.wssWriteBytes],
    );
    await client.query(
      `INSERT INTO volume_mrcs (tenant_id, volume_id, window_name, method, sampling_rate, points, eviction_points)
       VALUES ($1, $2, 'all', 'shards-fixed-rate', 0.01, $3, $4)`,
      [tenantId, volumeId, JSON.stringify(VOLUME.mrc), JSON.stringify({
        lru: VOLUME.mrc,
        "s3-fifo": VOLUME.mrc.map((p) => ({ ...p, miss_ratio: p.miss_ratio * 0.8 })),
      })],
    );
    await client.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio,
         target_hit_ratio, inputs, explanation)
       VALUES ($1, $2, $3, 'nvme', 'write-through', 0.83, 0.9, 0.81, $4, $5)`,
      [
        tenantId,
        volumeId,
        VOLUME.tierBytes,
        JSON.stringify({ window: "all", wss_bytes: VOLUME.wssBytes, read_share: 0.8, target_fraction: 0.9 }),
        "4 GiB is the smallest tier whose predicted hit ratio (83%) reaches 90% of the achievable 90%. " +
          "The 3.25 GiB working set is too large for RAM; 80% reads with few large writes suit write-through on NVMe.",
      ],
    );
    // The desired policy at version 2, of which the agent applied version 2 with a problem.
    await client.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, write_back_copies, tier_bytes, media, eviction, source,
         updated_by_kind, updated_by_id, applied_version, applied_at, applied_error)
       VALUES ($1, $2, 2, 'write-back', 1, $3, 'nvme', 'lru', 'manual', 'api_key', gen_random_uuid(), 2, now(), $4)`,
      [tenantId, volumeId, VOLUME.tierBytes, "media nvme differs from the volume's RAM tier (set in the volumes file)"],
    );
    await client.query("COMMIT");
    return { tenantId, volumeId, hostId };
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    await client.end();
  }
}

/** Deletes the tenant `tenantId`: what {@link seedVolume} inserted, the API keys, then the tenant (memberships and the rest cascade). */
export async function dropTenant(ownerUrl: string, tenantId: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    for (const table of TABLES) await client.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]);
    await client.query("DELETE FROM tenants WHERE id = $1", [tenantId]);
  } finally {
    await client.end();
  }
}
