import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';

/** metric_rollups.workload of one window: {family: {direction: bucket counts}} (db/migrations 845). */
export type WorkloadCells = Partial<Record<string, Partial<Record<'all' | 'read' | 'write', number[]>>>>;

/** The workload histograms of the rollups, in the tenant's transaction. */
@Injectable()
export class WorkloadRepository {
  /** Whether the tenant has the volume. */
  async exists(db: Queryable, tenantId: string, volumeId: string): Promise<boolean> {
    const { rowCount } = await db.query('SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2', [tenantId, volumeId]);
    return (rowCount ?? 0) > 0;
  }

  /** The non-empty workload cells of a volume's windows at `resolution` in [from, to). */
  async windows(db: Queryable, tenantId: string, q: { volumeId: string; resolution: string; from: Date; to: Date }): Promise<WorkloadCells[]> {
    const { rows } = await db.query<{ workload: WorkloadCells }>(
      `SELECT workload FROM metric_rollups
        WHERE tenant_id = $1 AND scope = 'volume' AND scope_id = $2 AND resolution = $3 AND window_start >= $4 AND window_start < $5
          AND workload <> '{}'::jsonb`,
      [tenantId, q.volumeId, q.resolution, q.from, q.to],
    );
    return rows.map((r) => r.workload);
  }
}
