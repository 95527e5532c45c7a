import { applyDecorators, createParamDecorator, type ExecutionContext, UseGuards } from '@nestjs/common';
import type { AgentPrincipal } from '../repositories/agent.repository.js';
import { AgentAuthGuard, type AgentRequest } from './agent-auth.guard.js';

/** Routes of agents: `Authorization: Bearer <agent token>` required (see {@link AgentAuthGuard}). */
export const AgentAuth = (): ClassDecorator & MethodDecorator => applyDecorators(UseGuards(AgentAuthGuard));

/** The authenticated agent of the request (tenant and agent id from its credential). */
export const CurrentAgent = createParamDecorator(
  (_: unknown, context: ExecutionContext): AgentPrincipal => context.switchToHttp().getRequest<AgentRequest>().agent,
);
