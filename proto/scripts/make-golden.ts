/**
 * Writes the golden test vectors proto/testdata/<name>.bin (binary protobuf) and
 * <name>.json (proto3 canonical JSON of the same message), plus testdata/manifest.json.
 * Layout and conventions: proto/testdata/README.md. Run after a build:
 *   npm run build -w @tierwise/proto && npm run make-golden -w @tierwise/proto
 * The values are fixed (no clock, no randomness), so reruns give identical files.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  AggregationTemporality,
  ATTR,
  Direction,
  EvictionPolicy,
  ExportMetricsServiceRequest,
  ExportMetricsServiceResponse,
  IngestRecord,
  ioLengthBinIndex,
  IO_LENGTH_BOUNDS_BYTES,
  METRIC,
  METRIC_SPECS,
  ReferenceBatch,
  ReferenceBatches,
  resolveProtoDir,
  SCOPE_NAME,
  SERVICE_NAME,
  type KeyValue,
  type MessageCodec,
  type MessageInput,
} from "../src/index";

const HOST_ID = "5f2b9c1e7a3d4086";
const VOLUME_ID = "c0ffee00d15ea5e1";
const INTERVAL_START_NS = 1_700_000_000_000_000_000n;
const INTERVAL_END_NS = INTERVAL_START_NS + 10_000_000_000n; // 10 s interval

const referenceBatch: MessageInput<ReferenceBatch> = {
  batchId: "3f0c2a9e-6b1d-4c7a-9e25-5d8f1b7c4a10",
  hostId: HOST_ID,
  volumeId: VOLUME_ID,
  samplingModulus: 1n << 24n, // P = 2^24
  samplingThreshold: 167_772n, // T: R = T / P ~ 1 %
  baseTimeUnixNano: 1_700_000_000_123_456_789n,
  sequence: 7n,
  references: [
    // timeOffsetUs 0 is the proto3 default: absent from the wire and from the JSON.
    { blockHash: 0xffff_ffff_ffff_ffffn, direction: Direction.READ, lengthBlocks: 1, timeOffsetUs: 0n },
    { blockHash: 0x8000_0000_0000_0001n, direction: Direction.WRITE, lengthBlocks: 2, timeOffsetUs: 15n },
    { blockHash: 0x0123_4567_89ab_cdefn, direction: Direction.READ, lengthBlocks: 16, timeOffsetUs: 1_500n },
    // An offset above 2^32 (a 10-byte-free but > 4-byte varint).
    { blockHash: 0xffn, direction: Direction.WRITE, lengthBlocks: 256, timeOffsetUs: 4_294_967_301n },
  ],
  // Stream totals: 4,096 block references considered; HyperLogLog p = 16 with three risen
  // registers, (index << 8) | value: index 0 value 1, index 0x1234 value 7, index 0xFFFF value 25.
  consideredReferences: 4_096n,
  distinctBlocksHllPrecision: 16,
  distinctBlocksHllUpdates: [(0 << 8) | 1, (0x1234 << 8) | 7, (0xffff << 8) | 25],
  // No LRU anchor (the proto3 defaults, absent from the wire): the golden batch predates it.
  lruAnchorHits: 0n,
  lruAnchorBlocks: 0,
  // Miniature simulations of the five policies at the two smallest sizes of the agent's grid,
  // both at the batch's T (a size runs at the agent's full rate while C x T / P blocks fit a
  // miniature tier: edge-agent/src/cache/miniature_simulations.hpp). Their sample is the
  // references with H mod P < T: 0x8000000000000001 and 0xFF, both writes, so no reads (and
  // read_references 0, absent from the wire); misses per policy in miniaturePolicies' order.
  miniaturePolicies: [EvictionPolicy.LRU, EvictionPolicy.S3FIFO, EvictionPolicy.ARC, EvictionPolicy.TWO_Q, EvictionPolicy.SIEVE],
  miniatureSimulations: [
    writesOnly(4n << 20n, 167_772n, 2n, [2n, 1n, 1n, 2n, 1n]), // 4 MiB
    writesOnly(6n << 20n, 167_772n, 2n, [1n, 1n, 1n, 1n, 1n]), // 6 MiB
  ],
  // The host's shared tier at 4 MiB, its T_C fallen while the batch was open: another of the
  // host's volumes lowered its T, and the tier's T_C stepped to 7/8 of it
  // (edge-agent/src/cache/miniature_simulations.hpp). So the size comes twice, the higher T_C
  // first: 0x8000000000000001 (H mod P = 1) counted at the batch's T, then 0xFF (H mod P = 255) at
  // the lower T_C; each reference counts once per size.
  hostTierSimulations: [
    writesOnly(4n << 20n, 167_772n, 1n, [1n, 1n, 1n, 1n, 1n]),
    writesOnly(4n << 20n, 131_250n, 1n, [1n, 0n, 1n, 1n, 0n]),
  ],
};

/** A MiniatureSimulation of write references only (read_references and read_misses 0). */
function writesOnly(cacheBytes: bigint, samplingThreshold: bigint, references: bigint, misses: bigint[]) {
  return { cacheBytes, samplingThreshold, references, readReferences: 0n, misses, readMisses: misses.map(() => 0n) };
}

const str = (key: string, value: string): MessageInput<KeyValue> => ({ key, value: { stringValue: value } });
const point = { startTimeUnixNano: INTERVAL_START_NS, timeUnixNano: INTERVAL_END_NS };

/** Front-end read sizes of the interval, bytes: they fill the tierwise.io.size histogram. */
const READ_SIZES = [
  ...Array<number>(700).fill(4096),
  ...Array<number>(200).fill(8192),
  ...Array<number>(50).fill(65536),
  ...Array<number>(3).fill(512),
  ...Array<number>(2).fill(1_048_576),
];
const READ_BYTES = BigInt(READ_SIZES.reduce((a, b) => a + b, 0));
const bucketCounts = IO_LENGTH_BOUNDS_BYTES.map(() => 0n).concat(0n);
for (const size of READ_SIZES) bucketCounts[ioLengthBinIndex(size)] += 1n;

const sum = (name: string, points: { attrs: [string, string][]; value: bigint }[]) => ({
  name,
  unit: METRIC_SPECS[name as keyof typeof METRIC_SPECS].unit,
  sum: {
    aggregationTemporality: AggregationTemporality.DELTA,
    isMonotonic: true,
    dataPoints: points.map(({ attrs, value }) => ({
      ...point,
      attributes: attrs.map(([k, v]) => str(k, v)),
      asInt: value,
    })),
  },
});

const exportRequest: MessageInput<ExportMetricsServiceRequest> = {
  resourceMetrics: [
    {
      resource: {
        attributes: [
          str(ATTR.serviceName, SERVICE_NAME),
          str(ATTR.serviceVersion, "0.1.0"),
          str(ATTR.hostId, HOST_ID),
          str(ATTR.volumeId, VOLUME_ID),
          str(ATTR.cacheMode, "write-back"),
        ],
      },
      scopeMetrics: [
        {
          scope: { name: SCOPE_NAME, version: "0.1.0" },
          metrics: [
            sum(METRIC.ioOperations, [
              { attrs: [[ATTR.ioDirection, "read"], [ATTR.ioSource, "frontend"]], value: 955n },
              { attrs: [[ATTR.ioDirection, "read"], [ATTR.ioSource, "cache"]], value: 700n },
              { attrs: [[ATTR.ioDirection, "read"], [ATTR.ioSource, "datastore"]], value: 255n },
            ]),
            sum(METRIC.ioBytes, [
              { attrs: [[ATTR.ioDirection, "read"], [ATTR.ioSource, "frontend"]], value: READ_BYTES },
            ]),
            {
              name: METRIC.ioSize,
              unit: METRIC_SPECS[METRIC.ioSize].unit,
              histogram: {
                aggregationTemporality: AggregationTemporality.DELTA,
                dataPoints: [
                  {
                    ...point,
                    attributes: [str(ATTR.ioDirection, "read")],
                    count: BigInt(READ_SIZES.length),
                    sum: Number(READ_BYTES),
                    bucketCounts,
                    explicitBounds: [...IO_LENGTH_BOUNDS_BYTES],
                    min: Math.min(...READ_SIZES),
                    max: Math.max(...READ_SIZES),
                  },
                ],
              },
            },
            {
              name: METRIC.cacheOccupancy,
              unit: METRIC_SPECS[METRIC.cacheOccupancy].unit,
              gauge: { dataPoints: [{ ...point, asInt: 64n << 30n }] }, // 64 GiB
            },
            {
              // Edge value 2^53 + 1 bytes: not representable as a double, so it checks that
              // 64-bit integers stay exact end to end.
              name: METRIC.cacheCapacity,
              unit: METRIC_SPECS[METRIC.cacheCapacity].unit,
              gauge: { dataPoints: [{ ...point, asInt: (1n << 53n) + 1n }] },
            },
          ],
        },
      ],
    },
  ],
};

const exportResponse: MessageInput<ExportMetricsServiceResponse> = {
  partialSuccess: { rejectedDataPoints: 3n, errorMessage: "3 data points had no tierwise.volume.id" },
};

const ingestRecord = (batchId: string, payload: Uint8Array): MessageInput<IngestRecord> => ({
  tenantId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  agentId: "16fd2706-8baf-433b-82eb-8c7fada847da",
  batchId,
  receivedUnixNano: 1_700_000_011_000_000_123n,
  payload,
});

interface Vector {
  name: string;
  codec: MessageCodec<unknown>;
  value: unknown;
}

const vectors: Vector[] = [
  { name: "reference_batch", codec: ReferenceBatch, value: referenceBatch },
  {
    name: "reference_batches",
    codec: ReferenceBatches,
    // The second batch has no references, so no size simulated one: the policies without simulations.
    value: {
      batches: [
        referenceBatch,
        {
          ...referenceBatch,
          batchId: "9d4e7b21-0a3c-4f6e-8b5d-1c2e3f4a5b6c",
          sequence: 8n,
          references: [],
          miniatureSimulations: [],
          hostTierSimulations: [],
        },
      ],
    },
  },
  { name: "export_metrics_request", codec: ExportMetricsServiceRequest, value: exportRequest },
  { name: "export_metrics_response", codec: ExportMetricsServiceResponse, value: exportResponse },
  {
    name: "ingest_record_refs",
    codec: IngestRecord,
    value: ingestRecord(referenceBatch.batchId as string, ReferenceBatch.encode(referenceBatch)),
  },
  {
    name: "ingest_record_metrics",
    codec: IngestRecord,
    value: ingestRecord("b7e1d0c2-94a8-4f5e-8c3b-2a6d9f0e1b45#1", ExportMetricsServiceRequest.encode(exportRequest)),
  },
];

/** Writes every vector into `dir`; returns the written file names. */
export function writeGolden(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const write = (file: string, data: string | Uint8Array) => {
    writeFileSync(path.join(dir, file), data);
    written.push(file);
  };
  for (const { name, codec, value } of vectors) {
    const input = value as MessageInput<unknown>;
    write(`${name}.bin`, codec.encode(input));
    write(`${name}.json`, JSON.stringify(codec.toJson(input), null, 2) + "\n");
  }
  const manifest = vectors.map(({ name, codec }) => ({ name, type: codec.typeName }));
  write("manifest.json", JSON.stringify(manifest, null, 2) + "\n");
  return written;
}

if (require.main === module) {
  const dir = path.join(resolveProtoDir(), "testdata");
  for (const file of writeGolden(dir)) console.log(path.join(dir, file));
}
