import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../api.constants.js';
import type { ClusterRow, ClusterWindowRow } from './cluster.dto.js';

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
      `SELECT cluster_id, volumes, wss_bytes::float8 AS wss_bytes, updated_at
         FROM cluster_working_sets
        WHERE tenant_id = $1 AND window_name = $2 AND ($3::text IS NULL OR cluster_id > $3)
        ORDER BY cluster_id
        LIMIT $4`,
      [tenantId, REPORTED_WINDOW, afterClusterId ?? null, limit],
    );
    return rows;
  }

  /** Every window of one cluster with its MRC, shortest window first; empty when the cluster is unknown. */
  async windows(db: Queryable, tenantId: string, clusterId: string): Promise<ClusterWindowRow[]> {
    const { rows } = await db.query<ClusterWindowRow>(
      `SELECT w.window_name, w.volumes, w.wss_bytes::float8 AS wss_bytes, w.wss_read_bytes::float8 AS wss_read_bytes,
              w.wss_write_bytes::float8 AS wss_write_bytes, w.sampling_rate, w.sampled_references::float8 AS sampled_references,
              w.window_start, w.window_end,
              CASE WHEN m.cluster_id IS NULL THEN NULL
                   ELSE jsonb_build_object('method', m.method, 'sampling_rate', m.sampling_rate, 'points', m.points) END AS mrc
         FROM cluster_working_sets w
         LEFT JOIN cluster_mrcs m
           ON m.tenant_id = w.tenant_id AND m.cluster_id = w.cluster_id AND m.window_name = w.window_name
        WHERE w.tenant_id = $1 AND w.cluster_id = $2
        ORDER BY ${WINDOW_ORDER}`,
      [tenantId, clusterId],
    );
    return rows;
  }
}
