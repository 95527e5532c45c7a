import { Injectable } from '@nestjs/common';
import { type AgentPrincipal, ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import {
  BATCH_ID_HEADER,
  IngestRecord,
  KAFKA_TOPICS,
  type MessageCodec,
  type MessageView,
  ProtoDecodeError,
  ReferenceBatch,
  referenceBatchSlices,
  resourceMetricsIngestRecord,
  resourceMetricsSlices,
} from '@tierwise/proto';
import { MAX_IN_FLIGHT_BATCHES, MAX_REFERENCE_BATCHES, RETRY_AFTER_BUSY_SECONDS, RETRY_AFTER_SECONDS } from '../ingest.constants.js';
import { InventoryRepository, type VolumeSighting } from './inventory.repository.js';
import { type TelemetryRecord, TelemetryPublishError, TelemetryPublisher } from './telemetry-publisher.js';
import { validateMetricsRequest } from './validation/metrics-request.js';
import { validateReferenceBatch } from './validation/reference-batch.js';
import { checkBatchId, reject, within } from './validation/validation.js';

/** What happened to an accepted batch. */
export interface IngestOutcome {
  batchId: string;
  /** Kafka records published for this request. */
  records: number;
}

/** A batch ready to be accepted: its id, inventory and Kafka records. */
interface AcceptedBatch {
  batchId: string;
  sightings: VolumeSighting[];
  topic: string;
  records: TelemetryRecord[];
}

/**
 * Accepts agent batches: decode, validate and bound, record the inventory, publish to Kafka. A
 * batch is accepted whole or not at all; accepted means acknowledged by Kafka (acks=all).
 */
@Injectable()
export class IngestService {
  /** Batches between the start of their acceptance and its end (back-pressure bound). */
  private inFlight = 0;

  constructor(
    private readonly database: DatabaseService,
    private readonly inventory: InventoryRepository,
    private readonly telemetry: TelemetryPublisher,
  ) {}

  /**
   * Accepts an OTLP ExportMetricsServiceRequest: one Kafka record per ResourceMetrics (volume)
   * on telemetry.metrics.v1, each an IngestRecord whose payload is a request holding only
   * that ResourceMetrics, its bytes as received (not re-encoded, copied once), and whose batch
   * id is `<batchId>#<n>` (n = index in the request).
   *
   * @param batchId the X-Tierwise-Batch-Id header.
   * @param body the protobuf request body.
   * @throws ApiError invalid_body (400), payload_too_large (413), unavailable (503, retry).
   */
  async ingestMetrics(agent: AgentPrincipal, batchId: string | undefined, body: Buffer): Promise<IngestOutcome> {
    this.checkCapacity();
    const id = checkBatchId(batchId, `header ${BATCH_ID_HEADER}`);
    const slices = parsed('ExportMetricsServiceRequest', () => resourceMetricsSlices(body));
    const receivedUnixNano = unixNanoNow();
    const volumes = validateMetricsRequest(slices, receivedUnixNano);
    return this.accept(agent, {
      batchId: id,
      sightings: volumes,
      topic: KAFKA_TOPICS.metrics,
      records: volumes.map((volume, n) => ({
        key: recordKey(agent, volume.volumeId),
        value: resourceMetricsIngestRecord(recordFields(agent, `${id}#${n}`, receivedUnixNano), slices[n]),
      })),
    });
  }

  /**
   * Accepts a tierwise.v1.ReferenceBatch: one Kafka record on telemetry.refs.v1 whose payload
   * is the request body unchanged.
   *
   * @throws ApiError invalid_body (400), payload_too_large (413), unavailable (503, retry).
   */
  async ingestReferences(agent: AgentPrincipal, body: Buffer): Promise<IngestOutcome> {
    this.checkCapacity();
    const batch = decodeBody(ReferenceBatch, 'ReferenceBatch', body);
    const receivedUnixNano = unixNanoNow();
    validateReferenceBatch(batch, receivedUnixNano);
    return this.accept(agent, {
      batchId: batch.batchId,
      sightings: [referenceSighting(batch)],
      topic: KAFKA_TOPICS.refs,
      records: [ingestRecord(agent, batch.volumeId, batch.batchId, receivedUnixNano, body)],
    });
  }

  /**
   * Accepts a tierwise.v1.ReferenceBatches: one host's reference batches in one request, whole
   * or not at all (an invalid batch refuses the request, naming `batches[i]`). Each batch goes
   * to telemetry.refs.v1 as {@link ingestReferences} would publish it alone: one record whose
   * payload is the batch's bytes as received; all in one produce call.
   *
   * @throws ApiError invalid_body (400: also for a request without batches or with more than
   *   {@link MAX_REFERENCE_BATCHES}), payload_too_large (413), unavailable (503, retry).
   */
  async ingestReferenceBatches(agent: AgentPrincipal, body: Buffer): Promise<IngestOutcome> {
    this.checkCapacity();
    const slices = parsed('ReferenceBatches', () => referenceBatchSlices(body));
    if (slices.length === 0) {
      reject('ReferenceBatches holds no batch');
    }
    if (slices.length > MAX_REFERENCE_BATCHES) {
      reject(`request holds ${slices.length} reference batches; at most ${MAX_REFERENCE_BATCHES} are accepted`);
    }
    const receivedUnixNano = unixNanoNow();
    const batches = slices.map((slice, i) => {
      const batch = decodeBody(ReferenceBatch, `ReferenceBatch (batches[${i}])`, slice);
      within(`batches[${i}]`, () => validateReferenceBatch(batch, receivedUnixNano));
      return batch;
    });
    return this.accept(agent, {
      batchId: batches[0].batchId,
      sightings: batches.map(referenceSighting),
      topic: KAFKA_TOPICS.refs,
      records: batches.map((batch, i) => ingestRecord(agent, batch.volumeId, batch.batchId, receivedUnixNano, slices[i])),
    });
  }

  /**
   * Refuses a batch before any work is spent on it (decoding a large request costs
   * milliseconds) while {@link MAX_IN_FLIGHT_BATCHES} are being accepted. The entry points run
   * synchronously from this check to {@link accept}'s count, so no other batch slips between.
   *
   * @throws ApiError unavailable (503, Retry-After {@link RETRY_AFTER_BUSY_SECONDS}).
   */
  private checkCapacity(): void {
    if (this.inFlight >= MAX_IN_FLIGHT_BATCHES) {
      throw new ApiError(
        ErrorCode.Unavailable,
        `ingest is at capacity (${MAX_IN_FLIGHT_BATCHES} batches are waiting for Kafka), retry later`,
        { retryAfterSeconds: RETRY_AFTER_BUSY_SECONDS },
      );
    }
  }

  /**
   * Publishes and waits for Kafka's acks, then upserts the inventory where it changed or is a
   * minute old and no other batch is writing it ({@link InventoryRepository.writeUnwritten}), in
   * a tenant transaction only then: a batch Kafka refused leaves no trace. Nothing is remembered
   * per batch: an agent's resend of a batch whose answer it lost (or that was published before
   * the inventory failed) is published again, and the jobs drop it (a resent interval by its id,
   * a resent reference batch by its sequence; docs/fleet-scale.md "Deduplication"). (PostgreSQL
   * being unreachable is answered 503 by the common ErrorFilter.)
   */
  private async accept(agent: AgentPrincipal, batch: AcceptedBatch): Promise<IngestOutcome> {
    this.inFlight += 1;
    try {
      await this.telemetry.publish(batch.topic, batch.records);
      await this.inventory.writeUnwritten(agent, batch.sightings,
        (unwritten) => this.database.withTenant(agent.tenantId, (db) => this.inventory.record(db, agent, unwritten)));
      return { batchId: batch.batchId, records: batch.records.length };
    } catch (error) {
      if (error instanceof TelemetryPublishError) {
        throw new ApiError(ErrorCode.Unavailable, 'telemetry broker unavailable, retry later', {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
          cause: error,
        });
      }
      throw error;
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** The inventory sighting of a reference batch's volume (no names: only metrics carry them). */
function referenceSighting(batch: MessageView<ReferenceBatch>): VolumeSighting {
  return { hostId: batch.hostId, volumeId: batch.volumeId, hostName: null, volumeName: null, clusterId: batch.clusterId || null, source: null };
}

/** Decodes a protobuf body with the codec, as the message protobufjs builds (what validation reads). */
function decodeBody<T>(codec: MessageCodec<T>, name: string, body: Uint8Array): MessageView<T> {
  return parsed(name, () => codec.decodeMessage(body));
}

/** What `parse` reads from a protobuf body; a malformed body is a 400 naming `name` and protobufjs' reason. */
function parsed<T>(name: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ProtoDecodeError) {
      reject(`body is not a valid ${name}: ${error.reason}`);
    }
    throw error;
  }
}

function ingestRecord(agent: AgentPrincipal, volumeId: string, batchId: string, receivedUnixNano: bigint, payload: Uint8Array): TelemetryRecord {
  return { key: recordKey(agent, volumeId), value: IngestRecord.encode({ ...recordFields(agent, batchId, receivedUnixNano), payload }) };
}

/** The Kafka key of a volume's records: `<tenant_id>/<volume_id>` (KAFKA_TOPICS). */
function recordKey(agent: AgentPrincipal, volumeId: string): string {
  return `${agent.tenantId}/${volumeId}`;
}

/** An IngestRecord's fields but its payload. */
function recordFields(agent: AgentPrincipal, batchId: string, receivedUnixNano: bigint) {
  return { tenantId: agent.tenantId, agentId: agent.agentId, batchId, receivedUnixNano };
}

function unixNanoNow(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}
