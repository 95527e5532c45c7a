import { Injectable } from '@nestjs/common';
import { generateCredential, sha256Hex } from '../crypto/credentials.js';
import { DatabaseService } from '../database/database.service.js';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-code.js';
import { AGENT_CREDENTIAL_TAG, type AgentPrincipal } from './agent-auth.js';
import type { AgentHealth, AgentHealthReceiptDto, Enroll, EnrolledAgentDto } from './agent-self.dto.js';
import { AgentSelfRepository } from './agent-self.repository.js';

/**
 * What an agent does about itself: enrollment (a one-time token exchanged for a per-agent
 * credential of 256 random bits, stored as SHA-256) and its health reports (with that credential).
 * The portal's list of agents and their revocation are the api's (services/api/src/agents).
 */
@Injectable()
export class AgentSelfService {
  constructor(
    private readonly database: DatabaseService,
    private readonly agents: AgentSelfRepository,
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
}
