import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError, bearerCredential, ErrorCode, sha256Hex } from '@tierwise/common';
import type { Request } from 'express';
import { type AgentPrincipal, AgentRepository } from '../repositories/agent.repository.js';

/** A request that passed {@link AgentAuthGuard}. */
export interface AgentRequest extends Request {
  agent: AgentPrincipal;
}

/**
 * Authenticates `Authorization: Bearer <agent token>`: the token's SHA-256 must belong to a
 * live agent credential. 401 `unauthorized` with the reason otherwise.
 */
@Injectable()
export class AgentAuthGuard implements CanActivate {
  constructor(private readonly agents: AgentRepository) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest>();
    const token = bearerCredential(request.header('authorization'));
    if (!token) {
      throw new ApiError(ErrorCode.Unauthorized, 'missing Authorization: Bearer <agent token>');
    }
    const agent = await this.agents.authenticate(sha256Hex(token));
    if (!agent) {
      throw new ApiError(ErrorCode.Unauthorized, 'agent token is unknown or revoked');
    }
    request.agent = agent;
    return true;
  }
}
