import { Module } from '@nestjs/common';
import { AgentAuthGuard, AgentCredentialCache } from '@tierwise/common';
import { IngestService } from './ingest.service.js';
import { InventoryRepository } from './inventory.repository.js';
import { MetricsController } from './metrics.controller.js';
import { ReferencesController } from './references.controller.js';
import { TelemetryPublisher } from './telemetry-publisher.js';

/** Telemetry of agents: POST /v1/metrics (OTLP), /v1/refs (a ReferenceBatch) and /v1/refs/batches (a host's ReferenceBatches), validated and published to Kafka (the jobs drop resent batches). */
@Module({
  controllers: [MetricsController, ReferencesController],
  providers: [AgentAuthGuard, AgentCredentialCache, IngestService, InventoryRepository, TelemetryPublisher],
})
export class TelemetryModule {}
