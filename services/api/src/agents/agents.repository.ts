import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { type CreatedCursor, listRevocable, type RevocationStatus } from '../http/revocable-list.js';
import type { AgentRow } from './agent.dto.js';

// host_display_name: the host's name when it opted in (--send-names).
// last_telemetry_at: when ingest last saw telemetry of the agent's hosts (hosts.last_seen, at most a minute old; index hosts_agent_last_seen_idx).
const COLUMNS = `id, name, host_id,
  (SELECT h.display_name FROM hosts h WHERE h.tenant_id = agents.tenant_id AND h.host_id = agents.host_id) AS host_display_name,
  version, created_at, enrolled_at, revoked_at, last_report_at, uptime_seconds, tier_used_bytes,
  tier_capacity_bytes, volume_count, error_count, last_error, last_error_at,
  (SELECT max(h.last_seen) FROM hosts h WHERE h.tenant_id = agents.tenant_id AND h.agent_id = agents.id) AS last_telemetry_at`;

/** A tenant's agents, in the tenant's transaction (what agents write themselves: AgentSelfRepository in @tierwise/common). */
@Injectable()
export class AgentsRepository {
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
}
