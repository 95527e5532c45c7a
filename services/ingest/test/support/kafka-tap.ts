import { randomUUID } from 'node:crypto';
import { Consumer } from '@platformatic/kafka';
import { loadEnv } from '@tierwise/common';
import { IngestRecord } from '@tierwise/proto';

/** A record read back from Kafka, its value decoded. */
export interface TappedRecord {
  key: string;
  partition: number;
  record: IngestRecord;
}

/**
 * Reads what was written to a topic after a point in time: `open` notes every partition's
 * end offset, `drain` reads from there up to the end offsets at the time of the call (so it
 * returns exactly the records acknowledged in between, on every partition) and moves on.
 */
export class KafkaTap {
  private constructor(
    private readonly consumer: Consumer<Buffer, Buffer, Buffer, Buffer>,
    private readonly topic: string,
    private from: bigint[],
  ) {}

  static async open(topic: string): Promise<KafkaTap> {
    const consumer = new Consumer({
      groupId: `tierwise-test-${randomUUID()}`,
      clientId: 'tierwise-test-tap',
      bootstrapBrokers: [...loadEnv(['TIERWISE_KAFKA_BROKERS']).TIERWISE_KAFKA_BROKERS],
      maxWaitTime: 100,
    });
    return new KafkaTap(consumer, topic, await endOffsets(consumer, topic));
  }

  /** The records written since `open` or the previous `drain`, in partition then offset order. */
  async drain(): Promise<TappedRecord[]> {
    const to = await endOffsets(this.consumer, this.topic);
    const pending = new Set(to.flatMap((end, partition) => (end > this.from[partition] ? [partition] : [])));
    const records: TappedRecord[] = [];
    if (pending.size > 0) {
      const stream = await this.consumer.consume({
        topics: [this.topic],
        mode: 'manual',
        offsets: this.from.map((offset, partition) => ({ topic: this.topic, partition, offset })),
        autocommit: false,
      });
      for await (const message of stream) {
        if (message.offset < to[message.partition]) {
          records.push({ key: message.key.toString(), partition: message.partition, record: IngestRecord.decode(message.value) });
        }
        if (message.offset + 1n >= to[message.partition]) {
          pending.delete(message.partition);
        }
        if (pending.size === 0) {
          break;
        }
      }
      await stream.close();
    }
    this.from = to;
    return records.sort((a, b) => a.partition - b.partition);
  }

  async close(): Promise<void> {
    await this.consumer.close(true);
  }
}

async function endOffsets(consumer: Consumer<Buffer, Buffer, Buffer, Buffer>, topic: string): Promise<bigint[]> {
  const offsets = (await consumer.listOffsets({ topics: [topic] })).get(topic);
  if (!offsets) {
    throw new Error(`topic ${topic} does not exist; start Kafka with infra/local/kafka.sh start`);
  }
  return offsets;
}
