import { Body, Controller, HttpCode, HttpStatus, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AgentAuth, type AgentPrincipal, CurrentAgent, ErrorBodyDto } from '@tierwise/common';
import { type AgentHealth, AgentHealthReceiptDto, agentHealthSchema, type Enroll, EnrolledAgentDto, enrollSchema } from './agent.dto.js';
import { AgentsService } from './agents.service.js';

/** Name of the OpenAPI security scheme of an agent: `Authorization: Bearer <agent credential>`. */
export const AGENT_SCHEME = 'agent-credential';

/** The routes an agent calls itself: enrollment (with a one-time token) and its health report (with its credential). */
@ApiTags('agents')
@Controller('v1')
export class AgentSelfController {
  constructor(private readonly agents: AgentsService) {}

  @Post('agents/enroll')
  @HttpCode(HttpStatus.CREATED)
  @ApiOperation({ summary: 'Exchange a one-time enrollment token for a new agent and its credential (called by install.sh through `tierwise-agent enroll`)' })
  @ApiCreatedResponse({ type: EnrolledAgentDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed token, host_id, version or name' })
  @ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'unknown enrollment token' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'enrollment_token_used: the token enrolled an agent already' })
  @ApiGoneResponse({ type: ErrorBodyDto, description: 'enrollment_token_expired' })
  enroll(@Body({ schema: enrollSchema }) body: Enroll): Promise<EnrolledAgentDto> {
    return this.agents.enroll(body);
  }

  @Put('agent/health')
  @AgentAuth()
  @ApiBearerAuth(AGENT_SCHEME)
  @ApiOperation({ summary: 'The calling agent reports its health (version, uptime, tier usage, errors); shown by GET /v1/agents' })
  @ApiOkResponse({ type: AgentHealthReceiptDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed report' })
  @ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'missing or unknown agent credential, or agent_revoked' })
  report(@CurrentAgent() agent: AgentPrincipal, @Body({ schema: agentHealthSchema }) body: AgentHealth): Promise<AgentHealthReceiptDto> {
    return this.agents.report(agent, body);
  }
}
