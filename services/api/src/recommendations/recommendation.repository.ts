import { Injectable } from '@nestjs/common';
import type { Media, Queryable } from '@tierwise/common';
import type { Actor } from '../identity/principal.js';
import { RECOMMENDATION_COLUMNS } from '../volumes/volume.dto.js';
import type { RecommendationHistoryRow, RecommendationListRow, RecommendationStatus } from './recommendation.dto.js';

/** Recommendations with their volume's host and name and the decision on their current version; $1 = tenant. */
const RECOMMENDATIONS = `
  SELECT r.volume_id, v.host_id, v.display_name, ${RECOMMENDATION_COLUMNS},
         coalesce(d.decision, 'open') AS status, d.decided_at, d.reason
    FROM recommendations r
    JOIN volumes v ON v.tenant_id = r.tenant_id AND v.volume_id = r.volume_id
    LEFT JOIN recommendation_decisions d
      ON d.tenant_id = r.tenant_id AND d.volume_id = r.volume_id AND d.recommendation_created_at = r.created_at
   WHERE r.tenant_id = $1`;

/** Filters of a recommendation list; every field optional. */
export interface RecommendationFilter {
  status?: RecommendationStatus;
  media?: Media;
  hostId?: string;
  /** The last recommendation of the previous page: created_at to the millisecond (as the cursor carries it) and volume id. */
  after?: { createdAt: string; volumeId: string };
}

@Injectable()
export class RecommendationRepository {
  /** Recommendations of the tenant, newest first (ties by volume id), keyset-paginated. */
  async list(db: Queryable, tenantId: string, filter: RecommendationFilter, limit: number): Promise<RecommendationListRow[]> {
    const { rows } = await db.query<RecommendationListRow>(
      `SELECT * FROM (${RECOMMENDATIONS}) rec
        WHERE ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR media = $3) AND ($4::text IS NULL OR host_id = $4)
          AND ($5::timestamptz IS NULL OR date_trunc('milliseconds', created_at) < $5
               OR (date_trunc('milliseconds', created_at) = $5 AND volume_id > $6))
        ORDER BY date_trunc('milliseconds', created_at) DESC, volume_id
        LIMIT $7`,
      [tenantId, filter.status ?? null, filter.media ?? null, filter.hostId ?? null, filter.after?.createdAt ?? null, filter.after?.volumeId ?? null, limit],
    );
    return rows;
  }

  /** The volume's recommendation; `forUpdate` locks it (the stream jobs' upsert waits) until the transaction ends. */
  async get(db: Queryable, tenantId: string, volumeId: string, forUpdate = false): Promise<RecommendationListRow | null> {
    const { rows } = await db.query<RecommendationListRow>(`${RECOMMENDATIONS} AND r.volume_id = $2 ${forUpdate ? 'FOR UPDATE OF r' : ''}`, [tenantId, volumeId]);
    return rows[0] ?? null;
  }

  /**
   * The volume's past predictions (recommendation_history), newest first (ties by id, newest
   * first), keyset-paginated; `after` is the last entry of the previous page (created_at to the
   * millisecond, id).
   */
  async history(db: Queryable, tenantId: string, volumeId: string, after: { createdAt: string; id: string } | undefined, limit: number): Promise<RecommendationHistoryRow[]> {
    const { rows } = await db.query<RecommendationHistoryRow>(
      `SELECT r.id::text AS id, r.volume_id, r.tier_bytes::float8 AS tier_bytes, r.media, r.policy, r.window_name, r.replicas,
              r.predicted_hit_ratio, r.achievable_hit_ratio, r.target_hit_ratio, r.offloaded_iops, r.offloaded_bytes_per_second,
              r.predicted_latency_us, r.datastore_latency_us, r.tier_write_bytes_per_day, r.measured_hit_ratio, r.measured_at,
              r.measured_seconds, r.hit_ratio_error, r.eviction, r.explanation, r.created_at
         FROM recommendation_history r
        WHERE r.tenant_id = $1 AND r.volume_id = $2
          AND ($3::timestamptz IS NULL OR date_trunc('milliseconds', r.created_at) < $3
               OR (date_trunc('milliseconds', r.created_at) = $3 AND r.id < $4::bigint))
        ORDER BY date_trunc('milliseconds', r.created_at) DESC, r.id DESC
        LIMIT $5`,
      [tenantId, volumeId, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows;
  }

  /** Whether the tenant has the volume. */
  async volumeExists(db: Queryable, tenantId: string, volumeId: string): Promise<boolean> {
    const { rowCount } = await db.query('SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2', [tenantId, volumeId]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Records the decision on the volume's current recommendation version (its created_at copied
   * in SQL, to the microsecond). The caller holds the recommendation's row lock.
   */
  async decide(
    db: Queryable,
    tenantId: string,
    volumeId: string,
    decision: { decision: 'applied' | 'dismissed'; reason: string | null; policyVersion: number | null; actor: Actor },
  ): Promise<void> {
    await db.query(
      `INSERT INTO recommendation_decisions (tenant_id, volume_id, recommendation_created_at, decision, reason, policy_version, actor_kind, actor_id)
       SELECT tenant_id, volume_id, created_at, $3, $4, $5, $6, $7 FROM recommendations WHERE tenant_id = $1 AND volume_id = $2`,
      [tenantId, volumeId, decision.decision, decision.reason, decision.policyVersion, decision.actor.kind, decision.actor.id],
    );
  }
}
