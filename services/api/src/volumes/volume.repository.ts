import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { REPORTED_WINDOW } from '../config/api.constants.js';
import type { VolumeSort } from './volume-query.js';
import { type BlockSizeRow, RECOMMENDATION_COLUMNS, type RecommendationRow, type PolicyMrcRow, type VolumePageRow, type VolumeRow, type WorkingSetRow } from './volume.dto.js';
import { hitRatioSql } from './hit-ratio.sql.js';

/**
 * Sort key of each order, descending; volumes without a value get -1 (every real value is
 * >= 0), so they come last.
 */
const SORT_KEYS: Readonly<Record<VolumeSort, string>> = {
  ops: 'read_ops + write_ops',
  wss: 'coalesce(wss_bytes, -1)',
  hit_ratio: 'coalesce(hit_ratio, -1)',
};

/** Volumes with their host's name, I/O totals, working set ($2 = window) and recommendation; $1 = tenant. */
const VOLUMES = `
  SELECT v.volume_id, v.host_id, v.display_name, h.display_name AS host_display_name, v.source, v.last_seen,
         coalesce(s.read_ops, 0)::float8 AS read_ops, coalesce(s.write_ops, 0)::float8 AS write_ops,
         coalesce(s.read_bytes, 0)::float8 AS read_bytes, coalesce(s.write_bytes, 0)::float8 AS write_bytes,
         coalesce(s.cache_hits, 0)::float8 AS cache_hits, coalesce(s.cache_misses, 0)::float8 AS cache_misses,
         ${hitRatioSql('s.cache_hits', 's.cache_misses')} AS hit_ratio,
         ${hitRatioSql('s.read_cache_hits', 's.read_cache_misses')} AS read_hit_ratio,
         coalesce(s.capacity_bytes, 0)::float8 AS capacity_bytes, coalesce(s.evicted_bytes, 0)::float8 AS evicted_bytes,
         s.first_interval, s.last_interval,
         ws.wss_bytes::float8 AS wss_bytes, r.tier_bytes::float8 AS recommended_tier_bytes
    FROM volumes v
    LEFT JOIN hosts h ON h.tenant_id = v.tenant_id AND h.host_id = v.host_id
    LEFT JOIN volume_io_stats s ON s.tenant_id = v.tenant_id AND s.volume_id = v.volume_id
    LEFT JOIN volume_working_sets ws ON ws.tenant_id = v.tenant_id AND ws.volume_id = v.volume_id AND ws.window_name = $2
    LEFT JOIN recommendations r ON r.tenant_id = v.tenant_id AND r.volume_id = v.volume_id
   WHERE v.tenant_id = $1`;

/** Order and filters of a volume list. */
export interface VolumeListFilter {
  sort: VolumeSort;
  /** Only volumes last seen on this host. */
  hostId?: string;
  /** Only volumes with (true) or without (false) a recommendation. */
  hasRecommendation?: boolean;
}

/** Where a page starts: after the volume with this sort key and id. */
export interface VolumePosition {
  sortKey: number;
  volumeId: string;
}

/**
 * Reads of the volume tables. Every query names the tenant itself (the first wall) and runs
 * in the tenant's transaction, where row-level security is the second.
 */
@Injectable()
export class VolumeRepository {
  /**
   * One page of volumes in `filter.sort` order (descending, ties by volume id), keyset-paginated.
   * @param after the position of the last volume of the previous page, or null.
   * @param limit rows to return.
   */
  async list(db: Queryable, tenantId: string, filter: VolumeListFilter, after: VolumePosition | null, limit: number): Promise<VolumePageRow[]> {
    const { rows } = await db.query<VolumePageRow>(
      `SELECT * FROM (SELECT *, ${SORT_KEYS[filter.sort]} AS sort_key FROM (${VOLUMES}) volume) page
        WHERE ($3::float8 IS NULL OR sort_key < $3 OR (sort_key = $3 AND volume_id > $4))
          AND ($6::text IS NULL OR host_id = $6)
          AND ($7::boolean IS NULL OR (recommended_tier_bytes IS NOT NULL) = $7)
        ORDER BY sort_key DESC, volume_id
        LIMIT $5`,
      [tenantId, REPORTED_WINDOW, after?.sortKey ?? null, after?.volumeId ?? null, limit, filter.hostId ?? null, filter.hasRecommendation ?? null],
    );
    return rows;
  }

  /** One volume, or null when the tenant has no such volume. */
  async get(db: Queryable, tenantId: string, volumeId: string): Promise<VolumeRow | null> {
    const { rows } = await db.query<VolumeRow>(`${VOLUMES} AND v.volume_id = $3`, [tenantId, REPORTED_WINDOW, volumeId]);
    return rows[0] ?? null;
  }

  /** The volume's block-size distribution: read bins then write bins, in increasing size. */
  async blockSizes(db: Queryable, tenantId: string, volumeId: string): Promise<BlockSizeRow[]> {
    const { rows } = await db.query<BlockSizeRow>(
      `SELECT direction, bin_label, bin_upper_bytes::float8 AS bin_upper_bytes, ops::float8 AS ops, bytes::float8 AS bytes
         FROM volume_block_sizes WHERE tenant_id = $1 AND volume_id = $2
        ORDER BY direction, bin_upper_bytes NULLS LAST`,
      [tenantId, volumeId],
    );
    return rows;
  }

  async workingSet(db: Queryable, tenantId: string, volumeId: string): Promise<WorkingSetRow | null> {
    const { rows } = await db.query<WorkingSetRow>(
      `SELECT wss_bytes::float8 AS wss_bytes, wss_read_bytes::float8 AS wss_read_bytes, wss_write_bytes::float8 AS wss_write_bytes,
              sampling_rate, sampled_references::float8 AS sampled_references, window_start, window_end
         FROM volume_working_sets WHERE tenant_id = $1 AND volume_id = $2 AND window_name = $3`,
      [tenantId, volumeId, REPORTED_WINDOW],
    );
    return rows[0] ?? null;
  }

  async mrc(db: Queryable, tenantId: string, volumeId: string): Promise<PolicyMrcRow | null> {
    const { rows } = await db.query<PolicyMrcRow>(
      `SELECT method, sampling_rate, points, eviction_points FROM volume_mrcs WHERE tenant_id = $1 AND volume_id = $2 AND window_name = $3`,
      [tenantId, volumeId, REPORTED_WINDOW],
    );
    return rows[0] ?? null;
  }

  async recommendation(db: Queryable, tenantId: string, volumeId: string): Promise<RecommendationRow | null> {
    const { rows } = await db.query<RecommendationRow>(
      `SELECT ${RECOMMENDATION_COLUMNS} FROM recommendations r WHERE r.tenant_id = $1 AND r.volume_id = $2`,
      [tenantId, volumeId],
    );
    return rows[0] ?? null;
  }
}
