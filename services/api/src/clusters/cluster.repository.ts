import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../config/api.constants.js';
import { membersOf } from '../shared-tiers/shared-tier.repository.js';
import type { ClusterMembersRow, ClusterRow } from './cluster.dto.js';

/**
 * What the volumes last seen in cluster `c` add up to ($1 = tenant; membersOf) and the shared tier
 * recommended for the cluster. LATERAL subqueries over `c.cluster_id`.
 */
const CLUSTER_MEMBERS = `${membersOf('cluster', 'c')}
  LEFT JOIN LATERAL (
    SELECT cr.tier_bytes::float8 AS recommended_tier_bytes
      FROM cluster_recommendations cr WHERE cr.tenant_id = $1 AND cr.cluster_id = c.cluster_id) shared ON true`;

/**
 * The cluster list and what a cluster's members add up to (its windows and shared tier:
 * SharedTierRepository). Every query names the tenant (the first wall) and runs in the tenant's
 * transaction, where row-level security is the second.
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
}
