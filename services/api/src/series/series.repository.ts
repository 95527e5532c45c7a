import { Injectable } from '@nestjs/common';
import type { IoCounters, Queryable } from '@tierwise/common';
import type { CpuCells } from './cpu-times.js';
import type { LatencyCells, SourceCells } from './histogram.js';

/** One rollup window as read for a series (bigint sums as float8; t = window start, Unix seconds). */
export interface SeriesWindowRow extends IoCounters {
  scope_id: string;
  t: number;
  read_cache_hits: number;
  read_cache_misses: number;
  occupancy_bytes: number;
  capacity_bytes: number;
  latency_us: LatencyCells;
  sources: SourceCells;
  cpu: CpuCells;
}

@Injectable()
export class SeriesRepository {
  /**
   * The windows of one scope id (null: every id of the scope) at one resolution in [from, to),
   * ascending by id and start (the view rollup_windows: a volume's 10 s windows are its interval rows, docs/rollups.md). Read in the tenant's transaction (RLS) and filtered by tenant as well.
   */
  async windows(
    db: Queryable,
    tenantId: string,
    q: { scope: string; scopeId: string | null; resolution: string; from: Date; to: Date },
  ): Promise<SeriesWindowRow[]> {
    const { rows } = await db.query<SeriesWindowRow>(
      `SELECT scope_id, extract(epoch FROM window_start)::float8 AS t, read_ops::float8 AS read_ops, write_ops::float8 AS write_ops,
              read_bytes::float8 AS read_bytes, write_bytes::float8 AS write_bytes, cache_hits::float8 AS cache_hits,
              cache_misses::float8 AS cache_misses, read_cache_hits::float8 AS read_cache_hits,
              read_cache_misses::float8 AS read_cache_misses, occupancy_bytes::float8 AS occupancy_bytes,
              capacity_bytes::float8 AS capacity_bytes, latency_us, sources, cpu
         FROM rollup_windows
        WHERE tenant_id = $1 AND scope = $2 AND ($3::text IS NULL OR scope_id = $3) AND resolution = $4 AND window_start >= $5 AND window_start < $6
        ORDER BY scope_id, window_start`,
      [tenantId, q.scope, q.scopeId, q.resolution, q.from, q.to],
    );
    return rows;
  }
}

/** A volume's name, host and whether its applied policy is write-back. */
export interface VolumeInfoRow {
  volume_id: string;
  display_name: string | null;
  host_id: string;
  host_name: string | null;
  write_back: boolean;
}

/**
 * Every volume of the tenant with its host's name and whether the agent applied a write-back
 * policy (volume_policies.applied_version set and mode write-back).
 */
export async function volumeInfo(db: Queryable, tenantId: string): Promise<VolumeInfoRow[]> {
  const { rows } = await db.query<VolumeInfoRow>(
    `SELECT v.volume_id, v.display_name, v.host_id, h.display_name AS host_name,
            coalesce(p.mode = 'write-back' AND p.applied_version IS NOT NULL, false) AS write_back
       FROM volumes v
       LEFT JOIN hosts h ON h.tenant_id = v.tenant_id AND h.host_id = v.host_id
       LEFT JOIN volume_policies p ON p.tenant_id = v.tenant_id AND p.volume_id = v.volume_id
      WHERE v.tenant_id = $1`,
    [tenantId],
  );
  return rows;
}
