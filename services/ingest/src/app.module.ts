import { Module } from '@nestjs/common';
import { AgentAuthGuard, DatabaseModule, EnvModule, HealthModule } from '@tierwise/common';
import { MetricsController } from './controllers/metrics.controller.js';
import { ReferencesController } from './controllers/references.controller.js';
import { INGEST_ENV } from './ingest.constants.js';
import { BatchRepository } from './repositories/batch.repository.js';
import { InventoryRepository } from './repositories/inventory.repository.js';
import { TelemetryRepository } from './repositories/telemetry.repository.js';
import { IngestService } from './services/ingest.service.js';

@Module({
  imports: [EnvModule.forRoot(INGEST_ENV), DatabaseModule, HealthModule],
  controllers: [MetricsController, ReferencesController],
  providers: [AgentAuthGuard, IngestService, BatchRepository, InventoryRepository, TelemetryRepository],
})
export class AppModule {}
