import { Module } from '@nestjs/common';
import { AgentSelfModule } from '@tierwise/common';
import { AuditModule } from '../audit/audit.module.js';
import { AgentsController } from './agents.controller.js';
import { AgentsRepository } from './agents.repository.js';
import { AgentsService } from './agents.service.js';
import { EnrollmentTokensController } from './enrollment-tokens.controller.js';
import { EnrollmentTokensRepository } from './enrollment-tokens.repository.js';
import { EnrollmentTokensService } from './enrollment-tokens.service.js';

/**
 * Agents in the field: enrollment tokens, the agent list and revocation; enrollment and health
 * reports are the agent gateway's (AgentSelfModule, kept here as a deprecated alias).
 */
@Module({
  imports: [AuditModule, AgentSelfModule.register('api-alias')],
  controllers: [EnrollmentTokensController, AgentsController],
  providers: [AgentsRepository, AgentsService, EnrollmentTokensRepository, EnrollmentTokensService],
})
export class AgentsModule {}
