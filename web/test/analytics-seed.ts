/**
 * Analytics data for the portal's end-to-end tests and manual runs: two hosts, three volumes
 * (the busiest in write-back with a peer replica, WB+1, the others write-through), the last
 * `hours` of 10 s rollup windows per volume (the diurnal synthetic workload of
 * @tierwise/common/testing, with its per-source counts: cache, peer, datastore) with their
 * 1 min/1 h/1 d windows and the host and tenant scopes the rollup job would write, working-set estimates once a minute (through volume_working_sets, so
 * the history trigger records them), an MRC and an open recommendation for the busiest volume, and
 * a cluster of two volumes on both hosts with its working sets (once a minute) and MRC.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { addRollup, cloneRollup, coarserWindows, insertRollups, syntheticWindows, type RollupRow } from "@tierwise/common/testing";
import { dropTenant } from "./support/fixture.js";

const GiB = 2 ** 30;

export interface AnalyticsSeed {
  tenantId: string;
  hosts: { hostId: string; name: string }[];
  /** writeBack: write-back with one peer replica (WB+1): its rollups carry io.source=peer. */
  volumes: { volumeId: string; hostId: string; name: string; iops: number; writeBack: boolean }[];
  /** The busiest volume: the one with the recommendation. */
  busiest: string;
  /** A cluster of two volumes on both hosts (volumes.cluster_id), with its working sets and MRC. */
  cluster: { clusterId: string; volumeIds: string[]; capacityBytes: number };
  from: Date;
  to: Date;
}

/** Adds the volumes' windows window by window (same starts) into one scope's windows, as the rollup job does. */
function sumScopes(scope: RollupRow["scope"], scopeId: string, parts: RollupRow[][]): RollupRow[] {
  return parts[0].map((first, i) => {
    const row = cloneRollup(first, { scope, scope_id: scopeId, volumes: parts.length });
    for (const part of parts.slice(1)) addRollup(row, part[i], "sum");
    return row;
  });
}

/**
 * A volume name as an agent may send it (`--send-names`, issue 16 finding 1): markup that would
 * run if a page drew it as HTML. The pages must show it as text.
 */
export const HOSTILE_NAME = 'sql-log-01<img src="x" onerror="window.__xss=1">';

/** Seeds the tenant (which exists already) with the analytics data above, as tierwise_owner. */
export async function seedAnalytics(ownerUrl: string, tenantId: string, hours = 26): Promise<AnalyticsSeed> {
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  try {
    const to = new Date(Math.floor(Date.now() / 10_000) * 10_000);
    const from = new Date(to.getTime() - hours * 3600_000);
    const hosts = [
      { hostId: randomBytes(8).toString("hex"), name: "esx-01" },
      { hostId: randomBytes(8).toString("hex"), name: "esx-02" },
    ];
    const volumes = [
      { volumeId: randomBytes(8).toString("hex"), hostId: hosts[0].hostId, name: "sql-data-01", iops: 800, writeBack: true },
      { volumeId: randomBytes(8).toString("hex"), hostId: hosts[0].hostId, name: HOSTILE_NAME, iops: 200, writeBack: false },
      { volumeId: randomBytes(8).toString("hex"), hostId: hosts[1].hostId, name: "web-01", iops: 60, writeBack: false },
    ];
    for (const h of hosts) await db.query("INSERT INTO hosts (tenant_id, host_id, display_name) VALUES ($1, $2, $3)", [tenantId, h.hostId, h.name]);
    for (const v of volumes) await db.query("INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4)", [tenantId, v.volumeId, v.hostId, v.name]);
    const windows = (hours * 3600) / 10;
    const perVolume = volumes.map((v) => syntheticWindows(tenantId, "volume", v.volumeId, from, windows, v.iops, { writeBack: v.writeBack }));
    const perHost = hosts.map((h) => sumScopes("host", h.hostId, perVolume.filter((_, i) => volumes[i].hostId === h.hostId)));
    const tenant = sumScopes("tenant", tenantId, perVolume);
    for (const rows of [...perVolume, ...perHost, tenant]) await insertRollups(db, [...rows, ...coarserWindows(rows)]);

    const busiest = volumes[0].volumeId;
    const mrc = [0.93, 0.88, 0.8, 0.66, 0.47, 0.29, 0.21, 0.17, 0.12, 0.105, 0.1, 0.1].map((missRatio, i) => ({ cache_bytes: 32 * 2 ** 20 * 2 ** i, miss_ratio: missRatio }));
    /**
     * The 1 h window's estimate of a volume, cluster or host once a minute over the seeded hours (a
     * diurnal sine around `scale` GiB), upserted as the stream jobs do, so the db trigger keeps
     * its history; the last one also as the window 'all', with its MRC.
     */
    const workingSets = async (of: "volume" | "cluster" | "host", id: string, scale: number, extra: Record<string, number> = {}) => {
      const columns = Object.keys(extra).map((c) => `, ${c}`).join("");
      const values = Object.keys(extra).map((_, i) => `, $${7 + i}`).join("");
      for (let m = hours * 60; m >= 0; m -= 1) {
        const end = new Date(to.getTime() - m * 60_000);
        const wss = Math.round((scale + Math.sin((2 * Math.PI * end.getTime()) / 86_400_000)) * GiB);
        await db.query(
          `INSERT INTO ${of}_working_sets (tenant_id, ${of}_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate${columns})
           VALUES ($1, $2, '1h', $3::timestamptz - interval '1 hour', $3, $4, $5, $6, 100000, 0.01${values})
           ON CONFLICT (tenant_id, ${of}_id, window_name) DO UPDATE SET window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end,
             wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes, wss_write_bytes = EXCLUDED.wss_write_bytes`,
          [tenantId, id, end, wss, Math.round(wss * 0.8), Math.round(wss * 0.3), ...Object.values(extra)],
        );
      }
      // Everything seen: the window the lists show (and the MRC's).
      await db.query(
        `INSERT INTO ${of}_working_sets (tenant_id, ${of}_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate${columns})
         SELECT tenant_id, ${of}_id, 'all', $3, window_end, wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate${columns}
           FROM ${of}_working_sets WHERE tenant_id = $1 AND ${of}_id = $2 AND window_name = '1h'`,
        [tenantId, id, from],
      );
      await db.query(`INSERT INTO ${of}_mrcs (tenant_id, ${of}_id, window_name, method, sampling_rate, points) VALUES ($1, $2, 'all', 'shards-fixed-size', 0.01, $3)`, [
        tenantId,
        id,
        JSON.stringify(mrc.map((p) => ({ ...p, cache_bytes: p.cache_bytes * Math.ceil(scale / 2.5) }))),
      ]);
    };
    await workingSets("volume", busiest, 2.5);
    // The cluster: sql-data-01 (esx-01) and web-01 (esx-02) share a tier of 2 x 6 GiB.
    const cluster = { clusterId: randomBytes(8).toString("hex"), volumeIds: [volumes[0].volumeId, volumes[2].volumeId], capacityBytes: 12 * GiB };
    for (const volumeId of cluster.volumeIds) {
      await db.query("UPDATE volumes SET cluster_id = $3 WHERE tenant_id = $1 AND volume_id = $2", [tenantId, volumeId, cluster.clusterId]);
      await db.query(
        `INSERT INTO volume_io_stats (tenant_id, volume_id, first_interval, last_interval, read_ops, write_ops, read_bytes, write_bytes,
                                      cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, capacity_bytes)
         VALUES ($1, $2, $3, $4, 0, 0, 0, 0, 0, 0, 0, 0, 0, $5)`,
        [tenantId, volumeId, from, to, cluster.capacityBytes / 2],
      );
    }
    await workingSets("cluster", cluster.clusterId, 4, { volumes: 2, state_bytes: 300_000 });
    // The shared tier the jobs recommend from the cluster's merged stream: 3 GiB of NVMe for both.
    await db.query(
      `INSERT INTO cluster_recommendations (tenant_id, cluster_id, window_name, volumes, tier_bytes, media, policy, eviction, replicas,
         predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
         datastore_latency_us, tier_write_bytes_per_day, inputs, explanation)
       VALUES ($1, $2, '24h', 2, $3, 'nvme', 'write-through', 's3-fifo', 0, 0.8, 0.9, 0.81, 700, 2800000, 330, 1450, $4, '{}', $5)`,
      [tenantId, cluster.clusterId, 3 * GiB, 6 * GiB, "One 3 GiB tier shared by both volumes reaches 90% of the achievable 90%."],
    );
    // esx-01's two volumes share its device: 2 GiB of RAM recommended from their merged stream.
    await workingSets("host", hosts[0].hostId, 3, { volumes: 2, state_bytes: 300_000 });
    await db.query(
      `INSERT INTO host_recommendations (tenant_id, host_id, window_name, volumes, tier_bytes, media, policy, eviction, replicas,
         predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us,
         datastore_latency_us, tier_write_bytes_per_day, inputs, explanation)
       VALUES ($1, $2, '24h', 2, $3, 'ram', 'write-back', 's3-fifo', 1, 0.85, 0.9, 0.81, 850, 3400000, 120, 1450, NULL, '{}', $4)`,
      [tenantId, hosts[0].hostId, 2 * GiB, "One 2 GiB tier shared by the host's volumes reaches 94% of the achievable 90%."],
    );
    await db.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation,
                                    window_name, offloaded_iops, offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us)
       VALUES ($1, $2, $3, 'nvme', 'write-through', 0.83, 0.9, 0.81, $4, $5, '24h', 530, 2200000, 310, 1450)`,
      [tenantId, busiest, 4 * GiB, JSON.stringify({ window: "24h", read_share: 0.8 }),
        "4 GiB is the smallest tier whose predicted hit ratio (83%) reaches 90% of the achievable 90%; reads are 80% of I/Os, so write-through on NVMe."],
    );
    return { tenantId, hosts, volumes, busiest, cluster, from, to };
  } finally {
    await db.end();
  }
}

/** Tables seedAnalytics (and the tests after it) write that dropTenant does not empty. */
const ANALYTICS_TABLES = ["cluster_working_set_history", "cluster_working_sets", "cluster_mrcs", "host_working_sets", "host_mrcs", "volume_io_stats", "volume_policies", "recommendation_decisions", "recommendation_history", "volume_working_set_history", "volume_metrics_10s", "metric_rollups", "outbox"];

/** Deletes a seeded tenant with everything seedAnalytics and the pages' tests wrote for it, as tierwise_owner. */
export async function dropAnalytics(ownerUrl: string, tenantId: string): Promise<void> {
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  try {
    for (const table of ANALYTICS_TABLES) await db.query(`DELETE FROM ${table} WHERE tenant_id = $1`, [tenantId]);
  } finally {
    await db.end();
  }
  await dropTenant(ownerUrl, tenantId);
}
