import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../api.constants.js';
import { TIER_PREDICTION_COLUMNS } from '../dtos/volume.dto.js';
import type { ClusterMembersRow, ClusterRecommendationRow, ClusterRow, ClusterWindowRow } from './cluster.dto.js';

/**
 * What the volumes last seen in cluster `c` add up to ($1 = tenant): hosts, current tier capacity
 * (volume_io_stats' latest gauge), their own recommended tier sizes; and the shared tier
 * recommended for the cluster. LATERAL subqueries over `c.cluster_id`.
 */
const CLUSTER_MEMBERS = `
  LEFT JOIN LATERAL (
    SELECT count(DISTINCT v.host_id)::int AS hosts, coalesce(sum(s.capacity_bytes), 0)::float8 AS capacity_bytes,
           sum(r.tier_bytes)::float8 AS volumes_recommended_tier_bytes
      FROM volumes v
      LEFT JOIN volume_io_stats s ON s.tenant_id = v.tenant_id AND s.volume_id = v.volume_id
      LEFT JOIN recommendations r ON r.tenant_id = v.tenant_id AND r.volume_id = v.volume_id
     WHERE v.tenant_id = $1 AND v.cluster_id = c.cluster_id) m ON true
  LEFT JOIN LATERAL (
    SELECT cr.tier_bytes::float8 AS recommended_tier_bytes
      FROM cluster_recommendations cr WHERE cr.tenant_id = $1 AND cr.cluster_id = c.cluster_id) shared ON true`;


/** Window order of a cluster's working set: shortest first. */
const WINDOW_ORDER = "array_position(ARRAY['1h', '24h', '7d', 'all'], w.window_name)";

/**
 * Reads of cluster_working_sets and cluster_mrcs (written by the stream jobs' cluster working-set
 * function). Every query names the tenant (the first wall) and runs in the tenant's transaction,
 * where row-level security is the second.
 */
@Injectable()
export class ClusterRepository {
  /** Clusters of the tenant in cluster id order, keyset-paginated after `afterClusterId`. */
  async list(db: Queryable, tenantId: string, afterClusterId: string | undefined, limit: number): Promise<ClusterRow[]> {
    const { rows } = await db.query<ClusterRow>(
      `SELECT c.cluster_id, c.volumes, c.wss_bytes::float8 AS wss_bytes, c.updated_at, m.*, shared.*
         FROM cluster_working_sets c ${CLUSTER_MEMBERS}
        WHERE c.tenant_id = $1 AND c.window_name = $2 AND ($3::text IS NULL OR c.cluster_id > $3)
        ORDER BY c.cluster_id
        LIMIT $4`,
      [tenantId, REPORTED_WINDOW, afterClusterId ?? null, limit],
    );
    return rows;
  }

  /** What the volumes last seen in the cluster add up to (zero hosts when ingest saw none). */
  async members(db: Queryable, tenantId: string, clusterId: string): Promise<ClusterMembersRow> {
    const { rows } = await db.query<ClusterMembersRow>(`SELECT m.*, shared.* FROM (SELECT $2::text AS cluster_id) c ${CLUSTER_MEMBERS}`, [tenantId, clusterId]);
    return rows[0];
  }

  /** Every window of one cluster with its MRC, shortest window first; empty when the cluster is unknown. */
  async windows(db: Queryable, tenantId: string, clusterId: string): Promise<ClusterWindowRow[]> {
    const { rows } = await db.query<ClusterWindowRow>(
      `SELECT w.window_name, w.volumes, w.wss_bytes::float8 AS wss_bytes, w.wss_read_bytes::float8 AS wss_read_bytes,
              w.wss_write_bytes::float8 AS wss_write_bytes, w.sampling_rate, w.sampled_references::float8 AS sampled_references,
              w.window_start, w.window_end,
              CASE WHEN m.cluster_id IS NULL THEN NULL
                   ELSE jsonb_build_object('method', m.method, 'sampling_rate', m.sampling_rate, 'points', m.points,
                                           'eviction_points', m.eviction_points) END AS mrc
         FROM cluster_working_sets w
         LEFT JOIN cluster_mrcs m
           ON m.tenant_id = w.tenant_id AND m.cluster_id = w.cluster_id AND m.window_name = w.window_name
        WHERE w.tenant_id = $1 AND w.cluster_id = $2
        ORDER BY ${WINDOW_ORDER}`,
      [tenantId, clusterId],
    );
    return rows;
  }

  /** The shared tier recommended for the cluster, or null before one. */
  async recommendation(db: Queryable, tenantId: string, clusterId: string): Promise<ClusterRecommendationRow | null> {
    const { rows } = await db.query<ClusterRecommendationRow>(
      `SELECT ${TIER_PREDICTION_COLUMNS}, r.volumes FROM cluster_recommendations r WHERE r.tenant_id = $1 AND r.cluster_id = $2`,
      [tenantId, clusterId],
    );
    return rows[0] ?? null;
  }
}
