import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import type { WorkingSetHistoryBaseDto, WorkingSetHistoryQuery, WorkingSetPointDto } from './working-set-history.dto.js';

/**
 * Whose history: a volume's (volume_working_set_history, migration 730) or a cluster's
 * (cluster_working_set_history, migration 780), and where the subject is known from.
 */
const SUBJECTS = {
  volume: { history: 'volume_working_set_history', id: 'volume_id', known: 'SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2' },
  cluster: { history: 'cluster_working_set_history', id: 'cluster_id', known: 'SELECT 1 FROM cluster_working_sets WHERE tenant_id = $1 AND cluster_id = $2 LIMIT 1' },
} as const;

@Injectable()
export class WorkingSetHistoryService {
  constructor(private readonly database: DatabaseService) {}

  /**
   * A volume's or cluster's working-set estimates over time (one row per minute, kept by the db
   * trigger on its working-set table), in about `width` epoch-aligned points: min, max and the
   * latest estimate of each.
   * @throws ApiError not_found when the tenant has no such volume or no results for the cluster.
   */
  get(auth: Principal, subject: keyof typeof SUBJECTS, id: string, q: WorkingSetHistoryQuery, now = new Date()): Promise<WorkingSetHistoryBaseDto> {
    const to = q.to ? new Date(q.to) : now;
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 7 * 86400_000);
    const bucketSeconds = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000 / q.width / 60)) * 60;
    const { history, id: idColumn, known } = SUBJECTS[subject];
    return this.database.withTenant(auth.tenantId, async (db) => {
      if ((await db.query(known, [auth.tenantId, id])).rowCount === 0) throw new ApiError(ErrorCode.NotFound, `${subject} ${id} not found`);
      const { rows } = await db.query<WorkingSetPointDto>(
        `SELECT to_char(to_timestamp(floor(extract(epoch FROM at) / $5) * $5) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t,
                max(wss_bytes)::float8 AS wss_max_bytes, min(wss_bytes)::float8 AS wss_min_bytes,
                (array_agg(wss_bytes ORDER BY at DESC))[1]::float8 AS wss_bytes,
                (array_agg(wss_read_bytes ORDER BY at DESC))[1]::float8 AS wss_read_bytes,
                (array_agg(wss_write_bytes ORDER BY at DESC))[1]::float8 AS wss_write_bytes
           FROM ${history}
          WHERE tenant_id = $1 AND ${idColumn} = $2 AND window_name = $3 AND at >= $4 AND at < $6
          GROUP BY 1 ORDER BY 1`,
        [auth.tenantId, id, q.window, from, bucketSeconds, to],
      );
      return { window: q.window, from: from.toISOString(), to: to.toISOString(), bucket_seconds: bucketSeconds, points: rows };
    });
  }
}
