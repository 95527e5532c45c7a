import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';

/** The agent a request was authenticated as; the tenant comes from its credential, never from the payload. */
export interface AgentPrincipal {
  agentId: string;
  tenantId: string;
}

@Injectable()
export class AgentRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Finds the live (not revoked) agent whose token hashes to `tokenSha256`, through the
   * SECURITY DEFINER function authenticate_agent (the tenant is not known yet, so RLS would
   * hide the row).
   *
   * @param tokenSha256 SHA-256 hex of the Bearer token.
   * @returns the agent and its tenant, or null.
   */
  async authenticate(tokenSha256: string): Promise<AgentPrincipal | null> {
    const { rows } = await this.database.pool.query<{ agent_id: string; tenant_id: string }>(
      'SELECT agent_id, tenant_id FROM authenticate_agent($1)',
      [tokenSha256],
    );
    return rows.length === 1 ? { agentId: rows[0].agent_id, tenantId: rows[0].tenant_id } : null;
  }
}
