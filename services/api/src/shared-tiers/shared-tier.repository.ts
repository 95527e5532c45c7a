import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { TIER_PREDICTION_COLUMNS } from '../volumes/volume.dto.js';
import type { SharedTierKind, SharedTierRecommendationRow, SharedTierWindowRow } from './shared-tier.dto.js';

/** Window order of a working set: shortest first. */
const WINDOW_ORDER = "array_position(ARRAY['1h', '24h', '7d', 'all'], w.window_name)";

/** Each kind's tables and id column (fixed names: nothing from the request reaches the SQL text). */
const TABLES: Record<SharedTierKind, { workingSets: string; mrcs: string; recommendations: string; id: string }> = {
  cluster: { workingSets: 'cluster_working_sets', mrcs: 'cluster_mrcs', recommendations: 'cluster_recommendations', id: 'cluster_id' },
  host: { workingSets: 'host_working_sets', mrcs: 'host_mrcs', recommendations: 'host_recommendations', id: 'host_id' },
};

/**
 * What the volumes last seen in a shared tier add up to, as a LATERAL join over `outer`'s id
 * column ($1 = tenant) named `m`: hosts, member_volumes, current tier capacity (volume_io_stats'
 * latest gauge, bytes) and their own recommended tier sizes added up (bytes; null when none has
 * one). `outer` is an alias of a row with the kind's id column (cluster_id, host_id).
 */
export function membersOf(kind: SharedTierKind, outer: string): string {
  const id = TABLES[kind].id;
  return `
  LEFT JOIN LATERAL (
    SELECT count(DISTINCT v.host_id)::int AS hosts, count(v.volume_id)::int AS member_volumes,
           coalesce(sum(s.capacity_bytes), 0)::float8 AS capacity_bytes, sum(r.tier_bytes)::float8 AS volumes_recommended_tier_bytes
      FROM volumes v
      LEFT JOIN volume_io_stats s ON s.tenant_id = v.tenant_id AND s.volume_id = v.volume_id
      LEFT JOIN recommendations r ON r.tenant_id = v.tenant_id AND r.volume_id = v.volume_id
     WHERE v.tenant_id = $1 AND v.${id} = ${outer}.${id}) m ON true`;
}

/**
 * Reads of a shared tier's results (written by the stream jobs' SharedTierWorkingSetFunction, one
 * set of tables per kind: migrations 740/815 for clusters, 820 for hosts). Every query names the
 * tenant (the first wall) and runs in the caller's tenant transaction, where row-level security is
 * the second.
 */
@Injectable()
export class SharedTierRepository {
  /** Every window of one shared tier with its MRC, shortest window first; empty when it is unknown. */
  async windows(db: Queryable, tenantId: string, kind: SharedTierKind, id: string): Promise<SharedTierWindowRow[]> {
    const t = TABLES[kind];
    const { rows } = await db.query<SharedTierWindowRow>(
      `SELECT w.window_name, w.volumes, w.wss_bytes::float8 AS wss_bytes, w.wss_read_bytes::float8 AS wss_read_bytes,
              w.wss_write_bytes::float8 AS wss_write_bytes, w.sampling_rate, w.sampled_references::float8 AS sampled_references,
              w.window_start, w.window_end,
              CASE WHEN m.${t.id} IS NULL THEN NULL
                   ELSE jsonb_build_object('method', m.method, 'sampling_rate', m.sampling_rate, 'points', m.points,
                                           'eviction_points', m.eviction_points) END AS mrc
         FROM ${t.workingSets} w
         LEFT JOIN ${t.mrcs} m
           ON m.tenant_id = w.tenant_id AND m.${t.id} = w.${t.id} AND m.window_name = w.window_name
        WHERE w.tenant_id = $1 AND w.${t.id} = $2
        ORDER BY ${WINDOW_ORDER}`,
      [tenantId, id],
    );
    return rows;
  }

  /** The tier recommended for it from its volumes' merged stream, or null before one. */
  async recommendation(db: Queryable, tenantId: string, kind: SharedTierKind, id: string): Promise<SharedTierRecommendationRow | null> {
    const t = TABLES[kind];
    const { rows } = await db.query<SharedTierRecommendationRow>(
      `SELECT ${TIER_PREDICTION_COLUMNS}, r.volumes FROM ${t.recommendations} r WHERE r.tenant_id = $1 AND r.${t.id} = $2`,
      [tenantId, id],
    );
    return rows[0] ?? null;
  }
}
