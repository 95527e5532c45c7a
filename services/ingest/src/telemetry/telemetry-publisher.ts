import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CompressionAlgorithms, compatibilityPartitioner, type MessageToProduce, ProduceAcks, Producer } from '@platformatic/kafka';
import { type Env, InjectEnv, inSpan, KAFKA_SECURITY_ENV, kafkaSecurity, traceHeaders } from '@tierwise/common';
import { MAX_BODY_BYTES } from '../ingest.constants.js';

/** One Kafka record: key `<tenant_id>/<volume_id>`, value an encoded tierwise.v1.IngestRecord. */
export interface TelemetryRecord {
  key: string;
  value: Uint8Array;
}

/**
 * Record value bytes one produce request carries at most when publishes coalesce: the largest
 * body ingest takes, so a group's record batch stays within the brokers' message.max.bytes
 * (infra/local/kafka.sh) as each publish alone does.
 */
const MAX_GROUP_BYTES = MAX_BODY_BYTES;

interface WaitingPublish {
  messages: MessageToProduce<Buffer, Buffer, Buffer, Buffer>[];
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
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
 * (`kafkaSecurity`). An agent's resend of a batch after a lost answer is a second produce: the
 * jobs drop it (a metrics interval by IngestRecord.batch_id and its end, a reference batch by its sequence).
 */
@Injectable()
export class TelemetryPublisher implements OnModuleDestroy {
  private readonly producer: Producer<Buffer, Buffer, Buffer, Buffer>;
  /** Publishes waiting for the produce request in flight to end, in the order they came. */
  private readonly waiting: WaitingPublish[] = [];
  private sending = false;

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
   * Publishes `records` to `topic` and waits for acks=all. Publishes coalesce (group commit):
   * while one produce request is in flight, the publishes that arrive wait and go out together in
   * the next one, at most {@link MAX_GROUP_BYTES} of record values, so under load one produce
   * request, one socket write and one zstd record batch per partition carry many publishes; a
   * publish that finds none in flight goes out at once. A publish's records stay together and in
   * order, and publishes go out in the order they came.
   * @throws TelemetryPublishError when Kafka does not acknowledge them; a failed produce fails
   *   every publish waiting behind it too (Kafka is down or hung: each would wait as long again).
   */
  async publish(topic: string, records: readonly TelemetryRecord[]): Promise<void> {
    try {
      await inSpan(
        `${topic} publish`,
        { kind: 'producer', attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': topic, 'messaging.batch.message_count': records.length } },
        () => {
          // The publish span's context travels on every record (W3C traceparent header), so
          // the stream jobs continue the batch's trace down to their database write.
          const headers = new Map(Object.entries(traceHeaders()).map(([key, value]) => [Buffer.from(key), Buffer.from(value)]));
          const messages = records.map((record) => ({ topic, key: Buffer.from(record.key), value: toBuffer(record.value), headers }));
          return new Promise<void>((resolve, reject) => {
            this.waiting.push({ messages, bytes: records.reduce((sum, r) => sum + r.value.byteLength, 0), resolve, reject });
            this.sendWaiting();
          });
        },
      );
    } catch (error) {
      throw new TelemetryPublishError(`Kafka did not acknowledge ${records.length} record(s) on ${topic}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Sends the waiting publishes, as many as {@link MAX_GROUP_BYTES} allows, unless a send is in flight. */
  private sendWaiting(): void {
    if (this.sending || this.waiting.length === 0) return;
    let bytes = this.waiting[0].bytes;
    let count = 1;
    while (count < this.waiting.length && bytes + this.waiting[count].bytes <= MAX_GROUP_BYTES) {
      bytes += this.waiting[count].bytes;
      count++;
    }
    const group = this.waiting.splice(0, count);
    this.sending = true;
    this.producer.send({ messages: group.flatMap((p) => p.messages) }).then(
      () => {
        for (const p of group) p.resolve();
      },
      (error: unknown) => {
        for (const p of group.concat(this.waiting.splice(0))) p.reject(error);
      },
    ).finally(() => {
      this.sending = false;
      this.sendWaiting();
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.producer.close();
  }
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
