import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { EffectWindow } from './policy-effect.js';

/** The applied policy and the 10 s windows a policy change's effect is read from, in the tenant's transaction. */
@Injectable()
export class PolicyEffectRepository {
  /**
   * Whether the tenant has the volume, and the policy version its agent last reported applied with
   * when (volume_policies.applied_version, applied_at); change null when none was applied.
   */
  async appliedChange(db: Queryable, tenantId: string, volumeId: string): Promise<{ exists: boolean; change: { version: number; appliedAt: Date } | null }> {
    const { rows } = await db.query<{ applied_version: number | null; applied_at: Date | null }>(
      `SELECT p.applied_version, p.applied_at FROM volumes v
         LEFT JOIN volume_policies p ON p.tenant_id = v.tenant_id AND p.volume_id = v.volume_id
        WHERE v.tenant_id = $1 AND v.volume_id = $2`,
      [tenantId, volumeId],
    );
    const row = rows[0];
    if (!row) return { exists: false, change: null };
    return { exists: true, change: row.applied_version !== null && row.applied_at ? { version: row.applied_version, appliedAt: row.applied_at } : null };
  }

  /** The volume's 10 s windows in [from, to): front-end I/Os, latency cells and CPU time. */
  async windows(db: Queryable, tenantId: string, q: { volumeId: string; from: Date; to: Date }): Promise<EffectWindow[]> {
    const { rows } = await db.query<EffectWindow>(
      `SELECT (read_ops + write_ops)::float8 AS ops, latency_us, cpu FROM rollup_windows
        WHERE tenant_id = $1 AND scope = 'volume' AND scope_id = $2 AND resolution = '10s' AND window_start >= $3 AND window_start < $4`,
      [tenantId, q.volumeId, q.from, q.to],
    );
    return rows;
  }
}
