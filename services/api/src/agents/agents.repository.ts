import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { type CreatedCursor, listRevocable, type RevocationStatus } from '../http/revocable-list.js';
import type { AgentHealth, AgentRow } from './agent.dto.js';

// last_telemetry_at: the agent's newest batch accepted by ingest (index ingested_batches_agent_received_idx).
const COLUMNS = `id, name, host_id, version, created_at, enrolled_at, revoked_at, last_report_at, uptime_seconds, tier_used_bytes,
  tier_capacity_bytes, volume_count, error_count, last_error, last_error_at,
  (SELECT max(b.received_at) FROM ingested_batches b WHERE b.tenant_id = agents.tenant_id AND b.agent_id = agents.id) AS last_telemetry_at`;

/** Outcome of the db function enroll_agent. */
export type Enrollment = { status: 'enrolled'; agentId: string; tenantId: string } | { status: 'unknown' } | { status: 'used' | 'expired'; at: Date };

/** A tenant's agents, in the tenant's transaction; enrollment goes through enroll_agent (before the tenant is known). */
@Injectable()
export class AgentsRepository {
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

  /** Agents of the tenant, newest first, a page after `after` (listRevocable). */
  list(db: Queryable, tenantId: string, status: RevocationStatus, after: CreatedCursor | null, limit: number): Promise<AgentRow[]> {
    return listRevocable<AgentRow>(db, 'agents', COLUMNS, tenantId, status, after, limit);
  }

  /** The agent, or null when the tenant has none of that id; `lock` takes its row lock. */
  async find(db: Queryable, tenantId: string, id: string, lock = false): Promise<AgentRow | null> {
    const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE tenant_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [tenantId, id]);
    return rows[0] ?? null;
  }

  async revoke(db: Queryable, tenantId: string, id: string): Promise<AgentRow> {
    const { rows } = await db.query<AgentRow>(`UPDATE agents SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [tenantId, id]);
    return rows[0];
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
