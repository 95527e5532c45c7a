import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';

/**
 * metric_rollups.workload of one window: {family: {direction: bucket counts}} (db/migrations 845);
 * `alignment_work` holds per direction [misaligned bytes, 4 KiB blocks as issued, if aligned].
 */
export type WorkloadCells = Partial<Record<string, Partial<Record<'all' | 'read' | 'write', number[]>>>>;

/** One rollup window's workload cells and the front-end I/Os and bytes of it. */
export interface WorkloadWindow {
  cells: WorkloadCells;
  bytes: number;
  readOps: number;
  writeOps: number;
}

/** The workload histograms of the rollups, in the tenant's transaction. */
@Injectable()
export class WorkloadRepository {
  /** Whether the tenant has the volume. */
  async exists(db: Queryable, tenantId: string, volumeId: string): Promise<boolean> {
    const { rowCount } = await db.query('SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2', [tenantId, volumeId]);
    return (rowCount ?? 0) > 0;
  }

  /** The non-empty workload cells of a volume's windows at `resolution` in [from, to), with their bytes. */
  async windows(db: Queryable, tenantId: string, q: { volumeId: string; resolution: string; from: Date; to: Date }): Promise<WorkloadWindow[]> {
    const { rows } = await db.query<{ workload: WorkloadCells; bytes: string; read_ops: string; write_ops: string }>(
      `SELECT workload, read_bytes + write_bytes AS bytes, read_ops, write_ops FROM rollup_windows
        WHERE tenant_id = $1 AND scope = 'volume' AND scope_id = $2 AND resolution = $3 AND window_start >= $4 AND window_start < $5
          AND workload::text <> '{}'`,
      [tenantId, q.volumeId, q.resolution, q.from, q.to],
    );
    return rows.map((r) => ({ cells: r.workload, bytes: Number(r.bytes), readOps: Number(r.read_ops), writeOps: Number(r.write_ops) }));
  }
}
