import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import { AgentDto, agentIdSchema, type AgentListQuery, agentListQuerySchema, AgentPageDto } from './agent.dto.js';
import { AgentsService } from './agents.service.js';

@ApiTags('agents')
@Controller('v1/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @Authenticated({ permission: Permission.AgentRead })
  @Endpoint({ summary: "The tenant's agents with the health they last reported (version, uptime, tier usage, errors), newest first", ok: AgentPageDto, errors: { 400: 'malformed status, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: agentListQuerySchema }) query: AgentListQuery): Promise<AgentPageDto> {
    return this.agents.list(auth, query);
  }

  @Get(':agentId')
  @Authenticated({ permission: Permission.AgentRead })
  @Endpoint({ summary: 'One agent with the health it last reported', ok: AgentDto, errors: { 400: 'malformed agentId', 404: 'the tenant has no such agent' } })
  get(@Auth() auth: Principal, @Param('agentId', { schema: agentIdSchema }) id: string): Promise<AgentDto> {
    return this.agents.get(auth, id);
  }

  @Delete(':agentId')
  @Authenticated({ permission: Permission.AgentWrite })
  @Endpoint({ summary: "Revoke an agent: from its next request on, ingest refuses its batches (401 agent_revoked) and nothing of them is kept", ok: AgentDto, errors: { 400: 'malformed agentId', 404: 'the tenant has no such agent', 409: 'the agent is revoked already' } })
  revoke(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Param('agentId', { schema: agentIdSchema }) id: string): Promise<AgentDto> {
    return this.agents.revoke(auth, origin, id);
  }
}
