import { Controller, HttpCode, Post } from '@nestjs/common';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '@tierwise/common';
import { type IngestOutcome, IngestService } from './ingest.service.js';
import { ProtobufBody } from './protobuf-body.js';

/** Receiver of SHARDS-sampled block references (tierwise.v1.ReferenceBatch, one or a host's ReferenceBatches). */
@Controller('v1/refs')
@AgentAuth()
export class ReferencesController {
  constructor(private readonly ingest: IngestService) {}

  /** `POST /v1/refs`: 200 `{batch_id, records}` once Kafka has the batch. */
  @Post()
  @HttpCode(200)
  async ingestBatch(@CurrentAgent() agent: AgentPrincipal, @ProtobufBody() body: Buffer): Promise<{ batch_id: string; records: number }> {
    const outcome: IngestOutcome = await this.ingest.ingestReferences(agent, body);
    return { batch_id: outcome.batchId, records: outcome.records };
  }

  /** `POST /v1/refs/batches`: 200 `{batches}` (the batches published) once Kafka has them all. */
  @Post('batches')
  @HttpCode(200)
  async ingestBatches(@CurrentAgent() agent: AgentPrincipal, @ProtobufBody() body: Buffer): Promise<{ batches: number }> {
    const outcome: IngestOutcome = await this.ingest.ingestReferenceBatches(agent, body);
    return { batches: outcome.records };
  }
}
