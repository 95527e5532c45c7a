import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../api.constants.js';
import type { FleetSummaryRow } from '../dtos/fleet.dto.js';
import { hitRatioSql } from './hit-ratio.sql.js';

@Injectable()
export class FleetRepository {
  /**
   * Inventory counts and I/O totals of one tenant over everything received.
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
              (SELECT coalesce(sum(wss_bytes), 0)::float8 FROM volume_working_sets
                WHERE tenant_id = $1 AND window_name = $2) AS wss_bytes
         FROM io`,
      [tenantId, REPORTED_WINDOW],
    );
    return rows[0];
  }
}
