import { Controller, Headers, HttpCode, Post, StreamableFile } from '@nestjs/common';
import { BATCH_ID_HEADER, ExportMetricsServiceResponse } from '@tierwise/proto';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '@tierwise/common';
import { IngestService } from './ingest.service.js';
import { PROTOBUF_MEDIA_TYPE, ProtobufBody } from './protobuf-body.js';

/** OTLP/HTTP metrics receiver (OTLP specification, "OTLP/HTTP", binary protobuf encoding). */
@Controller('v1/metrics')
@AgentAuth()
export class MetricsController {
  constructor(private readonly ingest: IngestService) {}

  /** `POST /v1/metrics`: 200 with an empty ExportMetricsServiceResponse (full success) once Kafka has the batch, also for a resent one (the jobs drop it). */
  @Post()
  @HttpCode(200)
  async export(
    @CurrentAgent() agent: AgentPrincipal,
    @Headers(BATCH_ID_HEADER.toLowerCase()) batchId: string | undefined,
    @ProtobufBody() body: Buffer,
  ): Promise<StreamableFile> {
    await this.ingest.ingestMetrics(agent, batchId, body);
    return new StreamableFile(ExportMetricsServiceResponse.encode({}), { type: PROTOBUF_MEDIA_TYPE });
  }
}
