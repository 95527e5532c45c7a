import { Module } from '@nestjs/common';
import { AgentAuthGuard } from '@tierwise/common';
import { PolicyChangeListener } from './policy-change.listener.js';
import { PolicyPullController } from './policy-pull.controller.js';
import { PolicyPullService } from './policy-pull.service.js';
import { AgentPolicyRepository } from './policy.repository.js';

/** Policy pull of agents: GET /v1/agent/policies (long poll on PostgreSQL notifications) and POST /v1/agent/policies/applied. */
@Module({
  controllers: [PolicyPullController],
  providers: [AgentAuthGuard, AgentPolicyRepository, PolicyChangeListener, PolicyPullService],
})
export class PoliciesModule {}
