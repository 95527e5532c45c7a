import { producerSendsChannel } from '@platformatic/kafka';
import { KAFKA_SECURITY_ENV, loadEnv } from '@tierwise/common';
import { KAFKA_TOPICS } from '@tierwise/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KafkaTap } from '../../test/support/kafka-tap.js';
import { TelemetryPublisher } from './telemetry-publisher.js';

describe('TelemetryPublisher (real Kafka)', () => {
  let publisher: TelemetryPublisher;
  let tap: KafkaTap;

  beforeAll(async () => {
    publisher = new TelemetryPublisher(loadEnv(['TIERWISE_KAFKA_BROKERS', ...KAFKA_SECURITY_ENV]));
    tap = await KafkaTap.open(KAFKA_TOPICS.metrics);
  });

  afterAll(async () => {
    await tap.close();
    await publisher.onModuleDestroy();
  });

  it('sends publishes that come together in one produce request, each answered at the ack', async () => {
    await publisher.publish(KAFKA_TOPICS.metrics, [{ key: 'warm/up', value: new Uint8Array(0) }]);
    await tap.drain();
    let sends = 0;
    const count = () => { sends += 1; };
    producerSendsChannel.start.subscribe(count);
    try {
      const keys = Array.from({ length: 20 }, (_, i) => `tenant/volume-${i}`);
      await Promise.all(keys.map((key) => publisher.publish(KAFKA_TOPICS.metrics, [{ key, value: new Uint8Array(0) }])));
      expect(sends).toBe(1);
      expect((await tap.drain()).map((r) => r.key).sort()).toEqual([...keys].sort());
    } finally {
      producerSendsChannel.start.unsubscribe(count);
    }
  });
});
