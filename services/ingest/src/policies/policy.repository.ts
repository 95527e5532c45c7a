import { Injectable } from '@nestjs/common';
import type { AgentPrincipal, DesiredPolicy, Queryable } from '@tierwise/common';
import type { AppliedReport } from './policy-document.js';

/** Why a report was not recorded. */
export interface IgnoredReport {
  volume_id: string;
  reason: string;
}

@Injectable()
export class AgentPolicyRepository {
  /**
   * The desired policies of the agent's tenant for `volumeIds` (volumes without a policy are
   * left out).
   *
   * @param db a client in the agent's tenant transaction.
   */
  async desired(db: Queryable, agent: AgentPrincipal, volumeIds: readonly string[]): Promise<DesiredPolicy[]> {
    const { rows } = await db.query<DesiredPolicy>(
      `SELECT volume_id, version, mode, write_back_copies, tier_bytes::float8 AS tier_bytes, media, eviction
         FROM volume_policies WHERE tenant_id = $1 AND volume_id = ANY($2::text[])`,
      [agent.tenantId, volumeIds],
    );
    return rows;
  }

  /**
   * Records what the agent applied: applied_version, applied_at (the agent's time, at most now),
   * applied_error and the agent, for each report whose version exists (at most the desired one)
   * and is not older than the version already reported applied.
   *
   * @param db a client in the agent's tenant transaction.
   * @returns the reports that were not recorded, with the reason.
   */
  async recordApplied(db: Queryable, agent: AgentPrincipal, report: AppliedReport): Promise<IgnoredReport[]> {
    const ids = report.reports.map((r) => r.volume_id);
    const { rows } = await db.query<{ volume_id: string }>(
      `UPDATE volume_policies p
          SET applied_version = r.version, applied_at = LEAST(r.applied_at, now()),
              applied_error = r.error, applied_agent_id = $2
         FROM unnest($3::text[], $4::int[], $5::timestamptz[], $6::text[]) AS r (volume_id, version, applied_at, error)
        WHERE p.tenant_id = $1 AND p.volume_id = r.volume_id AND r.version <= p.version
          AND (p.applied_version IS NULL OR r.version >= p.applied_version)
      RETURNING p.volume_id`,
      [agent.tenantId, agent.agentId, ids, report.reports.map((r) => r.version), report.reports.map((r) => r.applied_at), report.reports.map((r) => r.error)],
    );
    const recorded = new Set(rows.map((r) => r.volume_id));
    const ignored = report.reports.filter((r) => !recorded.has(r.volume_id));
    if (ignored.length === 0) return [];
    const { rows: current } = await db.query<{ volume_id: string; version: number; applied_version: number | null }>(
      'SELECT volume_id, version, applied_version FROM volume_policies WHERE tenant_id = $1 AND volume_id = ANY($2::text[])',
      [agent.tenantId, ignored.map((r) => r.volume_id)],
    );
    const byId = new Map(current.map((c) => [c.volume_id, c]));
    return ignored.map((r) => {
      const c = byId.get(r.volume_id);
      const reason = !c
        ? 'the volume has no policy'
        : r.version > c.version
          ? `version ${r.version} is newer than the desired version ${c.version}`
          : `version ${r.version} is older than the applied version ${c.applied_version}`;
      return { volume_id: r.volume_id, reason };
    });
  }
}
