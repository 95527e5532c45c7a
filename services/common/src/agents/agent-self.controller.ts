import { Body, Controller, HttpCode, HttpStatus, Post, Put, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Endpoint } from '../http/endpoint.decorator.js';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from './agent-auth.js';
import { type AgentHealth, AgentHealthReceiptDto, agentHealthSchema, type Enroll, EnrolledAgentDto, enrollSchema } from './agent-self.dto.js';
import { AgentSelfService } from './agent-self.service.js';

/** Name of the OpenAPI security scheme of an agent: `Authorization: Bearer <agent credential>`. */
export const AGENT_SCHEME = 'agent-credential';

/** Where these routes are mounted: on the agent gateway (ingest), or on the api as an alias kept for one release. */
export type AgentSelfMount = 'gateway' | 'api-alias';

const ALIAS_NOTE = "Deprecated on the api: the agent calls it on the agent gateway (ingest's base URL, docs/agent-gateway.md); the api answers it until the next release.";

/**
 * The routes an agent calls about itself: enrollment (with a one-time token) and its health
 * report (with its credential). One implementation, mounted by ingest as part of the agent
 * gateway and by the api as a deprecated alias (docs/agent-gateway.md).
 */
export function agentSelfController(mount: AgentSelfMount): Type<unknown> {
  const alias = mount === 'api-alias' ? { description: ALIAS_NOTE, deprecated: true } : {};

  @ApiTags('agents')
  @Controller('v1')
  class AgentSelfController {
    constructor(private readonly agents: AgentSelfService) {}

    @Post('agents/enroll')
    @HttpCode(HttpStatus.CREATED)
    @Endpoint({
      summary: 'Exchange a one-time enrollment token for a new agent and its credential (called by install.sh through `tierwise-agent enroll`)',
      ...alias,
      created: EnrolledAgentDto,
      errors: {
        400: 'malformed token, host_id, version or name',
        401: 'unknown enrollment token',
        409: 'enrollment_token_used: the token enrolled an agent already',
        410: 'enrollment_token_expired',
      },
    })
    enroll(@Body({ schema: enrollSchema }) body: Enroll): Promise<EnrolledAgentDto> {
      return this.agents.enroll(body);
    }

    @Put('agent/health')
    @AgentAuth()
    @ApiBearerAuth(AGENT_SCHEME)
    @Endpoint({
      summary: 'The calling agent reports its health (version, uptime, tier usage, errors); shown by GET /v1/agents',
      ...alias,
      ok: AgentHealthReceiptDto,
      errors: { 400: 'malformed report', 401: 'missing or unknown agent credential, or agent_revoked' },
    })
    report(@CurrentAgent() agent: AgentPrincipal, @Body({ schema: agentHealthSchema }) body: AgentHealth): Promise<AgentHealthReceiptDto> {
      return this.agents.report(agent, body);
    }
  }
  return AgentSelfController;
}
