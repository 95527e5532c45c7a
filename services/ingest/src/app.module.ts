import { Module } from '@nestjs/common';
import { AgentAuthGuard, DatabaseModule, EnvModule, HealthModule } from '@tierwise/common';
import { MetricsController } from './controllers/metrics.controller.js';
import { ReferencesController } from './controllers/references.controller.js';
import { INGEST_ENV } from './ingest.constants.js';
import { PolicyChangeListener } from './policies/policy-change.listener.js';
import { PolicyPullController } from './policies/policy-pull.controller.js';
import { PolicyPullService } from './policies/policy-pull.service.js';
import { AgentPolicyRepository } from './policies/policy.repository.js';
import { BatchRepository } from './repositories/batch.repository.js';
import { InventoryRepository } from './repositories/inventory.repository.js';
import { TelemetryRepository } from './repositories/telemetry.repository.js';
import { IngestService } from './services/ingest.service.js';

@Module({
  imports: [EnvModule.forRoot(INGEST_ENV), DatabaseModule, HealthModule],
  controllers: [MetricsController, ReferencesController, PolicyPullController],
  providers: [AgentAuthGuard, IngestService, BatchRepository, InventoryRepository, TelemetryRepository, AgentPolicyRepository, PolicyChangeListener, PolicyPullService],
})
export class AppModule {}
