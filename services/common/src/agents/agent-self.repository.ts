import { Injectable } from '@nestjs/common';
import type { Queryable } from '../database/transaction.js';
import type { AgentHealth } from './agent-self.dto.js';

/** Outcome of the db function enroll_agent. */
export type Enrollment = { status: 'enrolled'; agentId: string; tenantId: string } | { status: 'unknown' } | { status: 'used' | 'expired'; at: Date };

/** What an agent writes about itself: its enrollment (before its tenant is known) and its health reports (in its tenant's transaction). */
@Injectable()
export class AgentSelfRepository {
  /**
   * Consumes an enrollment token and creates the agent (db function enroll_agent, SECURITY
   * DEFINER: the token's row is locked, so one token enrolls one agent however many try).
   * @param db a client of the app role, outside any tenant.
   */
  async enroll(db: Queryable, agent: { tokenSha256: string; credentialSha256: string; hostId: string; version: string; name: string }): Promise<Enrollment> {
    const { rows } = await db.query<{ status: Enrollment['status']; agent_id: string | null; tenant_id: string | null; at: Date | null }>(
      'SELECT status, agent_id, tenant_id, at FROM enroll_agent($1, $2, $3, $4, $5)',
      [agent.tokenSha256, agent.credentialSha256, agent.hostId, agent.version, agent.name],
    );
    const row = rows[0];
    if (row.status === 'enrolled') {
      return { status: 'enrolled', agentId: row.agent_id!, tenantId: row.tenant_id! };
    }
    return row.status === 'unknown' ? { status: 'unknown' } : { status: row.status, at: row.at! };
  }

  /** Stores a health report; last_error_at moves only when the last error changes. */
  async report(db: Queryable, tenantId: string, id: string, health: AgentHealth): Promise<Date> {
    const { rows } = await db.query<{ last_report_at: Date }>(
      `UPDATE agents SET version = $3, uptime_seconds = $4, volume_count = $5, tier_used_bytes = $6, tier_capacity_bytes = $7,
              error_count = $8,
              last_error_at = CASE WHEN $9::text IS NULL THEN last_error_at WHEN last_error IS DISTINCT FROM $9 THEN now() ELSE last_error_at END,
              last_error = coalesce($9, last_error),
              last_report_at = now()
        WHERE tenant_id = $1 AND id = $2 RETURNING last_report_at`,
      [tenantId, id, health.version, health.uptime_seconds, health.volume_count, health.tier_used_bytes, health.tier_capacity_bytes, health.error_count, health.last_error],
    );
    return rows[0].last_report_at;
  }
}
