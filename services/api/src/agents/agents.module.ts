import { Module } from '@nestjs/common';
import { AgentAuthGuard } from '@tierwise/common';
import { AuditModule } from '../audit/audit.module.js';
import { AgentSelfController } from './agent-self.controller.js';
import { AgentsController } from './agents.controller.js';
import { AgentsRepository } from './agents.repository.js';
import { AgentsService } from './agents.service.js';
import { EnrollmentTokensController } from './enrollment-tokens.controller.js';
import { EnrollmentTokensRepository } from './enrollment-tokens.repository.js';
import { EnrollmentTokensService } from './enrollment-tokens.service.js';

/** Agents in the field: enrollment tokens, enrollment, health reports, the agent list and revocation. */
@Module({
  imports: [AuditModule],
  controllers: [EnrollmentTokensController, AgentsController, AgentSelfController],
  providers: [AgentAuthGuard, AgentsRepository, AgentsService, EnrollmentTokensRepository, EnrollmentTokensService],
})
export class AgentsModule {}
