import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CompressionAlgorithms, compatibilityPartitioner, ProduceAcks, Producer } from '@platformatic/kafka';
import { type Env, InjectEnv, inSpan, KAFKA_SECURITY_ENV, kafkaSecurity, traceHeaders } from '@tierwise/common';

/** One Kafka record: key `<tenant_id>/<volume_id>`, value an encoded tierwise.v1.IngestRecord. */
export interface TelemetryRecord {
  key: string;
  value: Uint8Array;
}

/** How long a publish waits for others to share its produce request, ms. */
export const PUBLISH_LINGER_MS = 2;
/** A produce request is sent at once when it holds this many records. */
const MAX_LINGERING_RECORDS = 1_000;

type Message = { topic: string; key: Buffer; value: Buffer; headers: Map<Buffer, Buffer> };

/** Publishes waiting for the next produce request. */
interface Lingering {
  messages: Message[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  timer: NodeJS.Timeout;
}

/** Kafka did not acknowledge a publish (broker down, timeout, leader change past the retries). */
export class TelemetryPublishError extends Error {
  override readonly name = 'TelemetryPublishError';
}

/**
 * The Kafka producer of ingest: idempotent with acks=all (every in-sync replica has the record
 * before the send resolves, and the broker drops the duplicate a retried produce would write:
 * KIP-98 producer ids and sequence numbers) and Java-compatible murmur2 partitioning of the
 * key, so all records of a volume land on one partition; record batches compressed with zstd
 * (RFC 8878; the brokers keep them as produced, the jobs' Kafka client decompresses them), which
 * shrinks the OTLP payloads several times on the wire and on disk. TLS and SASL/SCRAM as configured
 * (`kafkaSecurity`). An agent's resend of a batch after a lost answer is still a second
 * produce: consumers deduplicate on IngestRecord.batch_id, which is unique per record.
 *
 * Publishes that come within {@link PUBLISH_LINGER_MS} of each other share one produce request
 * (as the Java client's `linger.ms`): each caller still waits for the acknowledgement of its own
 * records, and a failed request fails every publish in it (each batch's transaction rolls back
 * and its agent retries). One request per batch cost Kafka and ingest several times what the
 * OpenTelemetry Collector's Kafka exporter spends per batch (docs/ingest-load.md).
 */
@Injectable()
export class TelemetryPublisher implements OnModuleDestroy {
  private readonly producer: Producer<Buffer, Buffer, Buffer, Buffer>;
  private lingering: Lingering | undefined;

  constructor(@InjectEnv() env: Env<'TIERWISE_KAFKA_BROKERS' | (typeof KAFKA_SECURITY_ENV)[number]>) {
    this.producer = new Producer({
      clientId: 'tierwise-ingest',
      bootstrapBrokers: [...env.TIERWISE_KAFKA_BROKERS],
      ...kafkaSecurity(env),
      idempotent: true,
      acks: ProduceAcks.ALL,
      partitioner: compatibilityPartitioner,
      compression: CompressionAlgorithms.ZSTD,
      timeout: 5_000,
      // A request Kafka leaves unanswered fails after requestTimeout (the client's default is 30 s).
      // The client nests its retries (a send's metadata and producer-id requests each retry their
      // connection's ApiVersions request), so a hung broker is answered 503 only after
      // (retries + 1)^2 timeouts: kept short so the agent is told to spool soon
      // (ingest.service.spec.ts "pushes back when Kafka hangs"). Retries are safe: the producer is idempotent.
      requestTimeout: 2_000,
      retries: 2,
      retryDelay: 250,
    });
  }

  /**
   * Publishes `records` to `topic` in one produce call and waits for acks=all.
   * @throws TelemetryPublishError when Kafka does not acknowledge them.
   */
  async publish(topic: string, records: readonly TelemetryRecord[]): Promise<void> {
    try {
      await inSpan(
        `${topic} publish`,
        { kind: 'producer', attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, 'messaging.batch.message_count': records.length } },
        async () => {
          // The publish span's context travels on every record (W3C traceparent header), so
          // the stream jobs continue the batch's trace down to their database write.
          const headers = new Map(Object.entries(traceHeaders()).map(([key, value]) => [Buffer.from(key), Buffer.from(value)]));
          await this.send(records.map((record) => ({ topic, key: Buffer.from(record.key), value: toBuffer(record.value), headers })));
        },
      );
    } catch (error) {
      throw new TelemetryPublishError(`Kafka did not acknowledge ${records.length} record(s) on ${topic}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Adds `messages` to the lingering produce request; resolves when Kafka acknowledged it. */
  private send(messages: Message[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.lingering) {
        const timer = setTimeout(() => this.flush(), PUBLISH_LINGER_MS);
        this.lingering = { messages: [], waiters: [], timer };
      }
      this.lingering.messages.push(...messages);
      this.lingering.waiters.push({ resolve, reject });
      if (this.lingering.messages.length >= MAX_LINGERING_RECORDS) {
        this.flush();
      }
    });
  }

  /** Sends the lingering request and settles its publishes. */
  private flush(): void {
    const request = this.lingering;
    if (!request) return;
    this.lingering = undefined;
    clearTimeout(request.timer);
    this.producer.send({ messages: request.messages }).then(
      () => request.waiters.forEach((w) => w.resolve()),
      (error: unknown) => request.waiters.forEach((w) => w.reject(error)),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.flush();
    await this.producer.close();
  }
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
