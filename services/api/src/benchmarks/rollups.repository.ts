import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { RollupPointRow } from './rollups.dto.js';

/** The latency percentiles of one histogram of latency_us (bucket counts as a json array `b`). */
const quantile = (q: number) =>
  `histogram_quantile(rollup_latency_bounds_us(), ARRAY(SELECT x::float8 FROM json_array_elements_text(b.value) WITH ORDINALITY AS e(x, i) ORDER BY i), ${q})`;

@Injectable()
export class RollupsRepository {
  /**
   * Windows of one scope and resolution in [from, to) (the view rollup_windows, docs/rollups.md), ordered by scope id and window start;
   * latency percentiles from each window's merged histograms (histogram_quantile, db).
   * @param db a client in the tenant's transaction.
   * @param limit rows at most.
   */
  async points(
    db: Queryable,
    tenantId: string,
    q: { scope: string; scopeId: string | null; resolution: string; from: Date; to: Date; limit: number },
  ): Promise<RollupPointRow[]> {
    const { rows } = await db.query<RollupPointRow>(
      `SELECT r.scope_id, r.window_start, r.volumes, r.read_ops::float8 AS read_ops, r.write_ops::float8 AS write_ops,
              r.read_bytes::float8 AS read_bytes, r.write_bytes::float8 AS write_bytes, r.cache_hits::float8 AS cache_hits,
              r.cache_misses::float8 AS cache_misses, r.evicted_bytes::float8 AS evicted_bytes,
              r.occupancy_bytes::float8 AS occupancy_bytes, r.capacity_bytes::float8 AS capacity_bytes,
              coalesce((SELECT jsonb_agg(jsonb_build_object(
                         'direction', d.key, 'size_bin', b.key,
                         'count', (SELECT sum(x::float8) FROM json_array_elements_text(b.value) AS x),
                         'p50_us', ${quantile(0.5)}, 'p95_us', ${quantile(0.95)}, 'p99_us', ${quantile(0.99)})
                       ORDER BY d.key, CASE WHEN b.key LIKE '>%' THEN 1e12 ELSE b.key::numeric END)
                          FROM json_each(r.latency_us) AS d, json_each(d.value) AS b), '[]'::jsonb) AS latency
         FROM rollup_windows r
        WHERE r.tenant_id = $1 AND r.scope = $2 AND ($3::text IS NULL OR r.scope_id = $3) AND r.resolution = $4
          AND r.window_start >= $5 AND r.window_start < $6
        ORDER BY r.scope_id, r.window_start
        LIMIT $7`,
      [tenantId, q.scope, q.scopeId, q.resolution, q.from, q.to, q.limit],
    );
    return rows;
  }
}
