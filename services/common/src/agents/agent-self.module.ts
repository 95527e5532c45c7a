import { type DynamicModule, Module } from '@nestjs/common';
import { AgentAuthGuard } from './agent-auth.js';
import { agentSelfController, type AgentSelfMount } from './agent-self.controller.js';
import { AgentSelfRepository } from './agent-self.repository.js';
import { AgentSelfService } from './agent-self.service.js';

export { AGENT_SCHEME, type AgentSelfMount } from './agent-self.controller.js';
export { AgentSelfService } from './agent-self.service.js';

/**
 * Enrollment and health reports of agents (POST /v1/agents/enroll, PUT /v1/agent/health).
 * `register('gateway')` in ingest, the agent gateway; `register('api-alias')` in the api, the
 * same routes marked deprecated in its OpenAPI document, kept for agents configured with the
 * api's URL until the next release (docs/agent-gateway.md). Needs DatabaseModule.
 */
@Module({})
export class AgentSelfModule {
  static register(mount: AgentSelfMount): DynamicModule {
    return {
      module: AgentSelfModule,
      controllers: [agentSelfController(mount)],
      providers: [AgentAuthGuard, AgentSelfRepository, AgentSelfService],
    };
  }
}
