/**
 * Agent-shaped test bodies following proto/METRICS.md: one ResourceMetrics per volume with
 * the interval's I/O counters, cache counters and I/O size histogram.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AggregationTemporality,
  ATTR,
  Direction,
  ExportMetricsServiceRequest,
  IO_LENGTH_BOUNDS_BYTES,
  type KeyValue,
  type MessageInput,
  METRIC,
  ReferenceBatch,
  SCOPE_NAME,
  SERVICE_NAME,
} from '@tierwise/proto';

export interface TestVolume {
  hostId: string;
  volumeId: string;
  hostName?: string;
  volumeName?: string;
  /** tierwise.cluster.id (agent option --cluster). */
  clusterId?: string;
  /** tierwise.volume.source (`vscsistats`: imported output). */
  source?: string;
}

/** A new pseudonymous id: 16 lowercase hex characters, like the agent's SipHash ids. */
export function pseudonymousId(): string {
  return randomBytes(8).toString('hex');
}

export function testVolume(names: { hostName?: string; volumeName?: string; clusterId?: string; source?: string } = {}): TestVolume {
  return { hostId: pseudonymousId(), volumeId: pseudonymousId(), ...names };
}

const NANOS_PER_SECOND = 1_000_000_000n;

function text(key: string, value: string): MessageInput<KeyValue> {
  return { key, value: { stringValue: value } };
}

/**
 * An ExportMetricsServiceRequest with one ResourceMetrics per volume for the 10-second
 * interval ending at `endUnixNano` (default: now): 100 reads and 40 writes of 4 KiB at the
 * front end, 70 cache hits and 30 misses, and the I/O size histogram.
 */
export function metricsRequest(volumes: TestVolume[], endUnixNano = BigInt(Date.now()) * 1_000_000n): Uint8Array {
  const startTimeUnixNano = endUnixNano - 10n * NANOS_PER_SECOND;
  const window = { startTimeUnixNano, timeUnixNano: endUnixNano };
  const sum = (points: { attributes: MessageInput<KeyValue>[]; value: number }[]) => ({
    aggregationTemporality: AggregationTemporality.DELTA,
    isMonotonic: true,
    dataPoints: points.map((p) => ({ ...window, attributes: p.attributes, asInt: p.value })),
  });
  const bucketCounts = (count: number) => [0, 0, 0, 0, count, ...new Array<number>(IO_LENGTH_BOUNDS_BYTES.length - 4).fill(0)];
  return ExportMetricsServiceRequest.encode({
    resourceMetrics: volumes.map((volume) => ({
      resource: {
        attributes: [
          text(ATTR.serviceName, SERVICE_NAME),
          text(ATTR.hostId, volume.hostId),
          text(ATTR.volumeId, volume.volumeId),
          text(ATTR.cacheMode, 'write-through'),
          ...(volume.hostName ? [text(ATTR.hostName, volume.hostName)] : []),
          ...(volume.volumeName ? [text(ATTR.volumeName, volume.volumeName)] : []),
          ...(volume.clusterId ? [text(ATTR.clusterId, volume.clusterId)] : []),
          ...(volume.source ? [text(ATTR.volumeSource, volume.source)] : []),
        ],
      },
      scopeMetrics: [
        {
          scope: { name: SCOPE_NAME },
          metrics: [
            {
              name: METRIC.ioOperations,
              unit: '{operation}',
              sum: sum([
                { attributes: [text(ATTR.ioDirection, 'read'), text(ATTR.ioSource, 'frontend')], value: 100 },
                { attributes: [text(ATTR.ioDirection, 'write'), text(ATTR.ioSource, 'frontend')], value: 40 },
              ]),
            },
            {
              name: METRIC.cacheHits,
              unit: '{block}',
              sum: sum([{ attributes: [text(ATTR.ioDirection, 'read')], value: 70 }]),
            },
            {
              name: METRIC.cacheMisses,
              unit: '{block}',
              sum: sum([{ attributes: [text(ATTR.ioDirection, 'read')], value: 30 }]),
            },
            {
              name: METRIC.ioSize,
              unit: 'By',
              histogram: {
                aggregationTemporality: AggregationTemporality.DELTA,
                dataPoints: [
                  {
                    ...window,
                    attributes: [text(ATTR.ioDirection, 'read')],
                    count: 100,
                    sum: 100 * 4096,
                    explicitBounds: [...IO_LENGTH_BOUNDS_BYTES],
                    bucketCounts: bucketCounts(100),
                  },
                ],
              },
            },
          ],
        },
      ],
    })),
  });
}

/**
 * A ReferenceBatch of `count` sampled references (rate 1/256 of P = 2^24), first one now, with
 * the stream totals an agent sends: 256 considered references per sampled one and a
 * HyperLogLog (p = 16) update per reference.
 */
export function referenceBatch(volume: TestVolume, count = 3, batchId = randomUUID()): Uint8Array {
  return ReferenceBatch.encode({
    batchId,
    hostId: volume.hostId,
    volumeId: volume.volumeId,
    samplingModulus: 1n << 24n,
    samplingThreshold: 1n << 16n,
    baseTimeUnixNano: BigInt(Date.now()) * 1_000_000n,
    sequence: 0n,
    references: Array.from({ length: count }, (_, i) => ({
      // A random hash in the sample: its low 24 bits (H mod P) below T = 2^16.
      blockHash: BigInt.asUintN(64, BigInt(`0x${randomBytes(8).toString('hex')}`)) & ~0xff0000n,
      direction: i % 3 === 0 ? Direction.WRITE : Direction.READ,
      lengthBlocks: 1 + (i % 4),
      timeOffsetUs: BigInt(i * 250),
    })),
    consideredReferences: BigInt(count * 256),
    distinctBlocksHllPrecision: 16,
    distinctBlocksHllUpdates: Array.from({ length: count }, (_, i) => (i << 8) | (1 + (i % 25))),
    lruAnchorHits: BigInt(count * 64),
    lruAnchorBlocks: 1024,
  });
}
