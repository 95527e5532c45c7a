/**
 * Arranges the rows the stream jobs would write for a volume (volume_io_stats and today's 1 d
 * volume rollup in metric_rollups, volume_block_sizes, volume_working_sets, volume_mrcs,
 * recommendations, volume_metrics_10s) plus the inventory
 * row ingest writes, as tierwise_owner.
 */
import { randomBytes } from 'node:crypto';
import type { Eviction } from '../contracts/cache-policy.js';
import type { Queryable } from '../database/transaction.js';

export interface VolumeFixture {
  volumeId: string;
  hostId: string;
  displayName?: string;
  /** The cluster ingest last saw the volume in (volumes.cluster_id); absent = none. */
  clusterId?: string;
  /** Front-end I/O totals and cache counters; absent = no volume_io_stats row and no rollup. */
  io?: { readOps: number; writeOps: number; hits: number; misses: number; readHits?: number; readMisses?: number };
  /** Working set size, bytes (window 'all'); absent = no row. */
  wssBytes?: number;
  /** Recommended tier size, bytes; absent = no row. */
  tierBytes?: number;
  /**
   * The recommendation's window, WB+n replicas, offload (I/Os per second, bytes per second) and
   * latencies (microseconds); absent = the columns' defaults ('all', 0, 0, 0, NULL, NULL).
   */
  prediction?: { window: string; replicas: number; offloadedIops: number; offloadedBytesPerSecond: number; predictedLatencyUs: number; datastoreLatencyUs: number };
  /** The eviction policy the recommendation predicts for (recommendations.eviction); absent = NULL (an older, LRU prediction). */
  eviction?: Eviction;
  /** Read I/Os of 4 KiB (vscsiStats bin '4096'); absent = no volume_block_sizes row. */
  blockSizeOps?: number;
  /** Largest cache size of the miss ratio curve (window 'all'), bytes; absent = no volume_mrcs row. */
  mrcCacheBytes?: number;
  /**
   * Miss ratio at mrcCacheBytes of each eviction policy's curve (volume_mrcs.eviction_points, on
   * the sizes of points: 0 and mrcCacheBytes); absent = '{}'. Needs mrcCacheBytes.
   */
  evictionCurves?: Partial<Record<Eviction, number>>;
  /**
   * The recommendation applied and running: its 'applied' decision wrote policy version 1 and the
   * agent reported that version applied at this time (ISO 8601), before the intervals; absent = open.
   */
  appliedAt?: string;
  /**
   * 10-second interval points (volume_metrics_10s), each with these read and write I/Os, at a
   * 16 GiB tier holding `occupancyBytes` (default 1 MiB); absent = none.
   */
  intervals?: { start: string; readOps: number; writeOps: number; hits: number; misses: number; occupancyBytes?: number }[];
}

export function hexId(): string {
  return randomBytes(8).toString('hex');
}

export async function insertVolume(db: Queryable, tenantId: string, volume: VolumeFixture): Promise<void> {
  await db.query(
    `INSERT INTO hosts (tenant_id, host_id) VALUES ($1, $2) ON CONFLICT DO NOTHING;`,
    [tenantId, volume.hostId],
  );
  await db.query(`INSERT INTO volumes (tenant_id, volume_id, host_id, display_name, cluster_id) VALUES ($1, $2, $3, $4, $5)`, [
    tenantId,
    volume.volumeId,
    volume.hostId,
    volume.displayName ?? null,
    volume.clusterId ?? null,
  ]);
  if (volume.io) {
    const { readOps, writeOps, hits, misses, readHits = hits, readMisses = misses } = volume.io;
    await db.query(
      `INSERT INTO volume_io_stats (tenant_id, volume_id, first_interval, last_interval, read_ops, write_ops, read_bytes, write_bytes,
                                    cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, capacity_bytes)
       VALUES ($1, $2, '2026-11-20T10:00:00Z', '2026-11-20T11:59:50Z', $3, $4, $3::bigint * 4096, $4::bigint * 8192, $5, $6, $7, $8, 1048576, 17179869184)`,
      [tenantId, volume.volumeId, readOps, writeOps, hits, misses, readHits, readMisses],
    );
    await db.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes,
                                   write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
                                   occupancy_bytes, capacity_bytes, latency_us)
       VALUES ($1, 'volume', $2, '1d', date_trunc('day', now()), 1, $3, $4, $3::bigint * 4096, $4::bigint * 8192, $5, $6, $7, $8,
               1048576, 1048576, 17179869184, '{}')`,
      [tenantId, volume.volumeId, readOps, writeOps, hits, misses, readHits, readMisses],
    );
  }
  if (volume.wssBytes !== undefined) {
    await db.query(
      `INSERT INTO volume_working_sets (tenant_id, volume_id, window_name, window_start, window_end, wss_bytes, wss_read_bytes,
                                        wss_write_bytes, sampled_references, sampling_rate)
       VALUES ($1, $2, 'all', '2026-11-20T10:00:00Z', '2026-11-20T12:00:00Z', $3, $3::bigint * 3 / 4, $3::bigint / 2, 52000, 0.01)`,
      [tenantId, volume.volumeId, volume.wssBytes],
    );
  }
  if (volume.tierBytes !== undefined) {
    const prediction = volume.prediction;
    await db.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio,
                                    target_hit_ratio, inputs, explanation, created_at, window_name, replicas, offloaded_iops,
                                    offloaded_bytes_per_second, predicted_latency_us, datastore_latency_us, eviction)
       VALUES ($1, $2, $3, 'nvme', 'write-through', 0.86, 0.95, 0.855, '{"window":"all","read_share":0.8}',
               'a 64 GiB NVMe tier reaches 86 % hits', '2026-11-20T12:00:05Z', $4, $5, $6, $7, $8, $9, $10)`,
      [tenantId, volume.volumeId, volume.tierBytes, prediction?.window ?? 'all', prediction?.replicas ?? 0, prediction?.offloadedIops ?? 0,
       prediction?.offloadedBytesPerSecond ?? 0, prediction?.predictedLatencyUs ?? null, prediction?.datastoreLatencyUs ?? null,
       volume.eviction ?? null],
    );
  }
  if (volume.blockSizeOps !== undefined) {
    await db.query(
      `INSERT INTO volume_block_sizes (tenant_id, volume_id, direction, bin_label, bin_upper_bytes, ops, bytes)
       VALUES ($1, $2, 'read', '4096', 4096, $3, $3::bigint * 4096)`,
      [tenantId, volume.volumeId, volume.blockSizeOps],
    );
  }
  if (volume.appliedAt !== undefined) {
    await db.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, tier_bytes, media, eviction, source, updated_by_kind,
                                    updated_by_id, applied_version, applied_at)
       SELECT tenant_id, volume_id, 1, 'write-through', tier_bytes, media, 's3-fifo', 'recommendation', 'api_key', gen_random_uuid(), 1, $3
         FROM recommendations WHERE tenant_id = $1 AND volume_id = $2`,
      [tenantId, volume.volumeId, volume.appliedAt],
    );
    await db.query(
      `INSERT INTO recommendation_decisions (tenant_id, volume_id, recommendation_created_at, decision, policy_version, actor_kind, actor_id)
       SELECT tenant_id, volume_id, created_at, 'applied', 1, 'api_key', gen_random_uuid() FROM recommendations WHERE tenant_id = $1 AND volume_id = $2`,
      [tenantId, volume.volumeId],
    );
  }
  for (const point of volume.intervals ?? []) {
    await db.query(
      `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops, read_bytes, write_bytes,
                                       cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes)
       VALUES ($1, $2, $3, 10, $4, $5, $4::bigint * 4096, $5::bigint * 8192, $6, $7, $6, $7, 0, $8, 17179869184)`,
      [tenantId, volume.volumeId, point.start, point.readOps, point.writeOps, point.hits, point.misses, point.occupancyBytes ?? 1048576],
    );
  }
  if (volume.mrcCacheBytes !== undefined) {
    const curve = (missRatio: number) => [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: volume.mrcCacheBytes, miss_ratio: missRatio }];
    const evictionPoints = Object.fromEntries(Object.entries(volume.evictionCurves ?? {}).map(([eviction, missRatio]) => [eviction, curve(missRatio)]));
    await db.query(
      `INSERT INTO volume_mrcs (tenant_id, volume_id, window_name, method, sampling_rate, points, eviction_points)
       VALUES ($1, $2, 'all', 'shards-fixed-rate', 0.01, $3, $4)`,
      [tenantId, volume.volumeId, JSON.stringify(curve(0.14)), JSON.stringify(evictionPoints)],
    );
  } else if (volume.evictionCurves !== undefined) {
    throw new Error('insertVolume: evictionCurves needs mrcCacheBytes');
  }
}
