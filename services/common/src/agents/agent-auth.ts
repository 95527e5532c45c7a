import { applyDecorators, type CanActivate, createParamDecorator, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { bearerCredential, sha256Hex } from '../crypto/credentials.js';
import { DatabaseService } from '../database/database.service.js';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-code.js';

/** Tag in front of every agent credential (API keys use `twk_`). */
export const AGENT_CREDENTIAL_TAG = 'twa_';

/** The agent a request was authenticated as; the tenant comes from its credential, never from the payload. */
export interface AgentPrincipal {
  agentId: string;
  tenantId: string;
}

/** A request that passed {@link AgentAuthGuard}. */
export interface AgentRequest extends Request {
  agent: AgentPrincipal;
}

/**
 * The agent whose credential `authorization` (`Bearer <agent credential>`) carries: its SHA-256
 * must belong to an agent that is not revoked ({@link authenticateAgentCredential}).
 * @throws ApiError 401 `unauthorized` (missing or unknown credential) or `agent_revoked`
 *   (the message gives the time of revocation).
 */
export async function authenticateAgent(database: DatabaseService, authorization: string | undefined): Promise<AgentPrincipal> {
  return authenticateAgentCredential(database, agentCredentialSha256(authorization));
}

/**
 * The SHA-256 (hex) of the agent credential of `authorization` (`Bearer <agent credential>`).
 * @throws ApiError 401 `unauthorized` when the header is missing or not a Bearer credential.
 */
export function agentCredentialSha256(authorization: string | undefined): string {
  const credential = bearerCredential(authorization);
  if (!credential) {
    throw new ApiError(ErrorCode.Unauthorized, 'missing Authorization: Bearer <agent credential>');
  }
  return sha256Hex(credential);
}

/**
 * The agent whose credential has SHA-256 `credentialSha256`, if it is not revoked. Looked up
 * through the SECURITY DEFINER function agent_credential_status (the tenant is not known yet, so
 * RLS would hide the row), which also tells a revoked credential from an unknown one. One indexed
 * query; nothing else is spent.
 * @throws ApiError 401 `unauthorized` (unknown credential) or `agent_revoked` (the message gives
 *   the time of revocation).
 */
export async function authenticateAgentCredential(database: DatabaseService, credentialSha256: string): Promise<AgentPrincipal> {
  const { rows } = await database.pool.query<{ agent_id: string; tenant_id: string; revoked_at: Date | null }>(
    'SELECT agent_id, tenant_id, revoked_at FROM agent_credential_status($1)',
    [credentialSha256],
  );
  const found = rows[0];
  if (!found) {
    throw new ApiError(ErrorCode.Unauthorized, 'agent credential is unknown (enroll the agent with an enrollment token)');
  }
  if (found.revoked_at) {
    throw new ApiError(ErrorCode.AgentRevoked, `agent ${found.agent_id} was revoked at ${found.revoked_at.toISOString()}; its data is refused (enroll the host again)`);
  }
  return { agentId: found.agent_id, tenantId: found.tenant_id };
}

/**
 * Guards the agent routes with {@link authenticateAgent}, unless a middleware in front (ingest's
 * telemetry admission, which authenticates before it reads a body) already set `request.agent`.
 * @throws ApiError 401 as {@link authenticateAgent}; nothing of the request is processed.
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(private readonly database: DatabaseService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest>();
    request.agent ??= await authenticateAgent(this.database, request.header('authorization'));
    return true;
  }
}

/** Routes of agents: `Authorization: Bearer <agent credential>` required (see {@link AgentAuthGuard}). */
export const AgentAuth = (): ClassDecorator & MethodDecorator => applyDecorators(UseGuards(AgentAuthGuard));

/** The authenticated agent of the request (tenant and agent id from its credential). */
export const CurrentAgent = createParamDecorator(
  (_: unknown, context: ExecutionContext): AgentPrincipal => context.switchToHttp().getRequest<AgentRequest>().agent,
);
