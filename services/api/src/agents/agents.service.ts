import { Injectable } from '@nestjs/common';
import { AGENT_CREDENTIAL_TAG, type AgentPrincipal, ApiError, DatabaseService, ErrorCode, generateCredential, sha256Hex } from '@tierwise/common';
import { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { timestampSchema } from '../http/timestamp.js';
import { type AgentDto, type AgentHealth, type AgentHealthReceiptDto, type AgentListQuery, type Enroll, type EnrolledAgentDto, mapAgent } from './agent.dto.js';
import { AgentsRepository } from './agents.repository.js';

const positionSchema = z.tuple([timestampSchema, z.uuid()]);

/** What the audit log keeps of an agent. */
const summary = (agent: AgentDto) => ({ name: agent.name, host_id: agent.host_id, version: agent.version, revoked_at: agent.revoked_at });

/**
 * A tenant's agents: enrollment (a one-time token exchanged for a per-agent credential of 256
 * random bits, stored as SHA-256), the health each agent reports with its credential, the
 * list an admin sees, and revocation (from then on ingest and the api refuse the credential:
 * AgentAuthGuard, 401 agent_revoked).
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly agents: AgentsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Exchanges an enrollment token for a new agent and its credential.
   * @throws ApiError unauthorized for an unknown token, enrollment_token_used (409) for a token
   *   used already, enrollment_token_expired (410) for an expired one; nothing is created then.
   */
  async enroll(request: Enroll): Promise<EnrolledAgentDto> {
    const credential = generateCredential(AGENT_CREDENTIAL_TAG);
    const outcome = await this.agents.enroll(this.database.pool, {
      tokenSha256: sha256Hex(request.enrollment_token),
      credentialSha256: sha256Hex(credential),
      hostId: request.host_id,
      version: request.version,
      name: request.name ?? `agent ${request.host_id}`,
    });
    switch (outcome.status) {
      case 'enrolled':
        return { agent_id: outcome.agentId, credential };
      case 'unknown':
        throw new ApiError(ErrorCode.Unauthorized, 'enrollment token is unknown (deleted, or never created); create one with POST /v1/enrollment-tokens');
      case 'used':
        throw new ApiError(ErrorCode.EnrollmentTokenUsed, `enrollment token was used already at ${outcome.at.toISOString()}; a token enrolls one agent`);
      case 'expired':
        throw new ApiError(ErrorCode.EnrollmentTokenExpired, `enrollment token expired at ${outcome.at.toISOString()}`);
    }
  }

  /** Stores the health an agent reports about itself (its tenant and id come from its credential). */
  async report(agent: AgentPrincipal, health: AgentHealth): Promise<AgentHealthReceiptDto> {
    const at = await this.database.withTenant(agent.tenantId, (db) => this.agents.report(db, agent.tenantId, agent.agentId, health));
    return { agent_id: agent.agentId, last_report_at: at.toISOString() };
  }

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
