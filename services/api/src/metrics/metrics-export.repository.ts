import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { hitRatioSql } from '../volumes/hit-ratio.sql.js';
import type { IntervalRow } from './metrics-export.dto.js';

@Injectable()
export class MetricsExportRepository {
  /** The volume's 10-second intervals with from <= interval_start < to, oldest first. */
  async intervals(db: Queryable, tenantId: string, volumeId: string, from: Date, to: Date): Promise<IntervalRow[]> {
    const { rows } = await db.query<IntervalRow>(
      `SELECT interval_start, interval_seconds::float8 AS interval_seconds,
              read_ops::float8 AS read_ops, write_ops::float8 AS write_ops, read_bytes::float8 AS read_bytes, write_bytes::float8 AS write_bytes,
              cache_hits::float8 AS cache_hits, cache_misses::float8 AS cache_misses,
              read_cache_hits::float8 AS read_cache_hits, read_cache_misses::float8 AS read_cache_misses,
              ${hitRatioSql('cache_hits', 'cache_misses')} AS hit_ratio,
              evicted_bytes::float8 AS evicted_bytes, occupancy_bytes::float8 AS occupancy_bytes, capacity_bytes::float8 AS capacity_bytes
         FROM volume_metrics_10s
        WHERE tenant_id = $1 AND volume_id = $2 AND interval_start >= $3 AND interval_start < $4
        ORDER BY interval_start`,
      [tenantId, volumeId, from, to],
    );
    return rows;
  }
}
