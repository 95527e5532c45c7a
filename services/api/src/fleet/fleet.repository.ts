import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../config/api.constants.js';
import type { FleetSummaryRow } from './fleet.dto.js';
import { hitRatioSql } from '../volumes/hit-ratio.sql.js';

@Injectable()
export class FleetRepository {
  /**
   * Inventory counts, I/O totals and working-set coverage of one tenant over everything received.
   * @param db a client in the tenant's transaction.
   */
  async summary(db: Queryable, tenantId: string): Promise<FleetSummaryRow> {
    const { rows } = await db.query<FleetSummaryRow>(
      `WITH io AS (
         SELECT coalesce(sum(read_ops), 0)::float8 AS read_ops, coalesce(sum(write_ops), 0)::float8 AS write_ops,
                coalesce(sum(read_bytes), 0)::float8 AS read_bytes, coalesce(sum(write_bytes), 0)::float8 AS write_bytes,
                coalesce(sum(cache_hits), 0)::float8 AS cache_hits, coalesce(sum(cache_misses), 0)::float8 AS cache_misses
           FROM volume_io_stats WHERE tenant_id = $1)
       SELECT (SELECT count(*) FROM volumes WHERE tenant_id = $1)::int AS volumes,
              (SELECT count(*) FROM hosts WHERE tenant_id = $1)::int AS hosts,
              io.*, ${hitRatioSql('io.cache_hits', 'io.cache_misses')} AS hit_ratio,
              ws.wss_bytes, ws.working_set_volumes, ws.sampled_references,
              (SELECT count(*) FROM volume_mrcs
                WHERE tenant_id = $1 AND window_name = $2 AND json_array_length(points) > 0)::int AS mrc_volumes
         FROM io,
              (SELECT coalesce(sum(wss_bytes), 0)::float8 AS wss_bytes, count(*)::int AS working_set_volumes,
                      coalesce(sum(sampled_references), 0)::float8 AS sampled_references
                 FROM volume_working_sets WHERE tenant_id = $1 AND window_name = $2) AS ws`,
      [tenantId, REPORTED_WINDOW],
    );
    return rows[0];
  }
}
