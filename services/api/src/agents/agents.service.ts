import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { timestampSchema } from '../http/timestamp.js';
import { type AgentDto, type AgentListQuery, mapAgent } from './agent.dto.js';
import { AgentsRepository } from './agents.repository.js';

const positionSchema = z.tuple([timestampSchema, z.uuid()]);

/** What the audit log keeps of an agent. */
const summary = (agent: AgentDto) => ({ name: agent.name, host_id: agent.host_id, version: agent.version, revoked_at: agent.revoked_at });

/**
 * A tenant's agents as an admin sees them: the list with the health each reports (enrollment and
 * the reports themselves: AgentSelfService in @tierwise/common) and revocation (from then on the
 * gateway and the api refuse the credential: AgentAuthGuard, 401 agent_revoked).
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly agents: AgentsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * One page of the tenant's agents with their health, newest first.
   * @throws ApiError bad_request for a cursor of another list or status.
   */
  async list(auth: Principal, query: AgentListQuery): Promise<Page<AgentDto>> {
    const kind = `agents:${query.status}`;
    const after = query.cursor ? decodeCursor(query.cursor, kind, positionSchema) : null;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.agents.list(db, auth.tenantId, query.status, after && { createdAt: after[0], id: after[1] }, query.limit + 1);
      return toPage(rows, query.limit, mapAgent, (last) => encodeCursor(kind, [last.created_at.toISOString(), last.id]));
    });
  }

  /** @throws ApiError not_found when the tenant has no such agent. */
  async get(auth: Principal, id: string): Promise<AgentDto> {
    const row = await this.database.withTenant(auth.tenantId, (db) => this.agents.find(db, auth.tenantId, id));
    if (!row) {
      throw new ApiError(ErrorCode.NotFound, `agent ${id} not found`);
    }
    return mapAgent(row);
  }

  /**
   * Revokes an agent: from its next request on, its batches (ingest) and reports are refused
   * with 401 agent_revoked and nothing of them is kept.
   * @throws ApiError not_found when the tenant has no such agent; conflict when it is revoked already.
   */
  async revoke(auth: Principal, origin: RequestOrigin, id: string): Promise<AgentDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const found = await this.agents.find(db, auth.tenantId, id, true);
      if (!found) {
        throw new ApiError(ErrorCode.NotFound, `agent ${id} not found`);
      }
      if (found.revoked_at) {
        throw new ApiError(ErrorCode.Conflict, `agent ${id} was revoked at ${found.revoked_at.toISOString()}`);
      }
      const agent = mapAgent(await this.agents.revoke(db, auth.tenantId, id));
      await this.audit.record(db, auth, origin, { action: 'agent.revoke', targetKind: 'agent', targetId: id, before: summary(mapAgent(found)), after: summary(agent) });
      return agent;
    });
  }
}
