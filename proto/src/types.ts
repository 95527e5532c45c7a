/**
 * TypeScript shapes of the decoded messages (protobufjs, `keepCase: false`: proto field
 * `time_unix_nano` is `timeUnixNano`). Decoding fills every field: absent scalars are their
 * proto3 default, absent repeated fields `[]`, absent message fields `null`; oneof members and
 * proto3 `optional` fields are present only when set. 64-bit integers are `bigint`, `bytes`
 * are `Uint8Array` (a Node Buffer), enums are numbers.
 *
 * Sources: proto/tierwise/v1/*.proto and the OTLP protos (opentelemetry-proto, proto/pom.xml).
 * Only the OTLP kinds the agent emits (Sum, Gauge, Histogram) are typed in detail.
 */

/** Recursively optional input shape accepted by `encode` (missing = proto3 default). */
export type MessageInput<T> = T extends bigint
  ? bigint | number | string
  : T extends Uint8Array
    ? Uint8Array
    : T extends readonly (infer E)[]
      ? readonly MessageInput<E>[]
      : T extends object
        ? { [K in keyof T]?: MessageInput<T[K]> | null }
        : T;

/** A 64-bit integer as protobufjs decodes it (long.js): two's-complement 32-bit words. */
export interface Long {
  low: number;
  high: number;
  /** True for the uint64 / fixed64 kinds. */
  unsigned: boolean;
}

/**
 * A message as protobufjs builds it while decoding, before the conversion to the plain shape
 * (`MessageCodec.decodeMessage`): 64-bit integers are {@link Long}, and every field reads a
 * value: an absent scalar (also a oneof member or a proto3 `optional` field) its proto3
 * default, an absent message field (also a oneof member) null, an absent repeated field `[]`.
 * Only the fields decoded from the bytes are the message's own properties, so whether a oneof
 * member or an `optional` field was sent is `isSet(message, field)` (message-view.ts).
 */
export type MessageView<T> = T extends bigint
  ? Long
  : T extends Uint8Array
    ? Uint8Array
    : T extends readonly (infer E)[]
      ? MessageView<E>[]
      : T extends object
        ? { [K in keyof T]-?: undefined extends T[K] ? OptionalView<Exclude<T[K], undefined>> : MessageView<T[K]> }
        : T;

/** An optional member's view: a message is null when absent, a scalar its default. */
type OptionalView<T> = T extends bigint | Uint8Array ? MessageView<T> : T extends object ? MessageView<T> | null : T;

// ---- tierwise.v1 (proto/tierwise/v1/reference_batch.proto, ingest_record.proto) ----

/** tierwise.v1.Direction. */
export enum Direction {
  UNSPECIFIED = 0,
  READ = 1,
  WRITE = 2,
}

/** tierwise.v1.EvictionPolicy: the cache engine's eviction policies (docs/eviction.md). */
export enum EvictionPolicy {
  UNSPECIFIED = 0,
  LRU = 1,
  S3FIFO = 2,
  ARC = 3,
  TWO_Q = 4,
  SIEVE = 5,
}

/** tierwise.v1.BlockReference: one sampled 4 KiB block touched by one I/O. */
export interface BlockReference {
  /** H(L): keyed 64-bit SipHash-2-4 of the 4 KiB block address (fixed64). */
  blockHash: bigint;
  direction: Direction;
  /** Length of the I/O that made the reference, 4 KiB blocks (>= 1). */
  lengthBlocks: number;
  /** Microseconds after ReferenceBatch.baseTimeUnixNano. */
  timeOffsetUs: bigint;
}

/** tierwise.v1.ReferenceBatch: SHARDS-sampled references of one volume, in time order. */
export interface ReferenceBatch {
  batchId: string;
  hostId: string;
  volumeId: string;
  /** P, the hash modulus; sampling rate R = T / P. */
  samplingModulus: bigint;
  /** T, the threshold: a block is sampled when H(L) mod P < T. */
  samplingThreshold: bigint;
  /** Start of the batch's span (first reference considered after the previous batch), Unix epoch ns. */
  baseTimeUnixNano: bigint;
  references: BlockReference[];
  sequence: bigint;
  /**
   * N of the batch's span: all 4 KiB block references the sampler considered, sampled or not
   * (>= references.length); 0 when the batch carries no stream totals (older agents).
   */
  consideredReferences: bigint;
  /** p of the HyperLogLog sketch of distinct blocks considered (2^p registers, 4..18); 0 = none. */
  distinctBlocksHllPrecision: number;
  /** Registers that rose in the batch's span, each (index << 8) | value, ascending by index. */
  distinctBlocksHllUpdates: number[];
  /** Pseudonymous cluster id (hex of a keyed hash of the cluster name); '' or absent: no cluster. */
  clusterId?: string;
  /** Hits of the agent's exact LRU cache of lruAnchorBlocks 4 KiB blocks among the span's considered references. */
  lruAnchorHits: bigint;
  /** Size of that LRU cache, 4 KiB blocks; 0 when the batch carries no anchor (older agents). */
  lruAnchorBlocks: number;
  /**
   * The agent's eviction policies simulated over the batch's references, in the order of each
   * simulation's `misses`; `[]` (older agents): none. Enum numbers; a value this schema does not
   * know decodes as its number.
   */
  miniaturePolicies: EvictionPolicy[];
  /**
   * One per cache size that simulated at least one of the batch's references, ascending by
   * `cacheBytes`; only with `miniaturePolicies`.
   */
  miniatureSimulations: MiniatureSimulation[];
  /**
   * The same counts in the host's shared tier (all its volumes' sampled references merged, each
   * volume's blocks its own), this batch's references' share: over the host's volumes they add up to
   * the tier's. Ascending by `cacheBytes`; a size may come again once per T_C, the higher first
   * (strictly falling `samplingThreshold` within one `cacheBytes`); only with `miniaturePolicies`;
   * `[]` when the agent does not simulate the host's tier (sample-refs, older agents).
   */
  hostTierSimulations: MiniatureSimulation[];
  /**
   * What the batch's references add to the service's working-set windows, computed by the agent
   * (docs/analytics.md "Windows on the agent"); absent (older agents): the service simulates them.
   */
  workingSet?: WorkingSetShares;
  /**
   * The same for the host's shared tier (all its volumes' sampled references merged, each volume's
   * blocks its own, one sample per host): this batch's share, its lastReferenceUnixNano on the
   * tier's clock (at or after the batch's last reference); over the host's volumes they add up to
   * the tier's windows. Absent (older agents): the service merges the volumes' references.
   */
  hostTierWorkingSet?: WorkingSetShares;
  /**
   * The batch's sampled references summarised in place of `references` (then empty): the agent
   * runs every analysis of them itself (a volume without a cluster); needs `workingSet` and
   * `miniaturePolicies`. Absent: the references are carried.
   */
  referenceSummary?: ReferenceSummary;
}

/** tierwise.v1.ReferenceSummary: what the service reads off a batch's sampled references the agent keeps. */
export interface ReferenceSummary {
  /** The sampled references the batch would have carried (>= 1). */
  references: bigint;
  /** The first and last of them, Unix epoch ns (baseTimeUnixNano <= first <= last). */
  firstReferenceUnixNano: bigint;
  lastReferenceUnixNano: bigint;
  /** Their I/O mix: by direction (READ first), then lengthBlocks ascending, each pair once; adding up to `references`. */
  ioLengths: IoLengthCount[];
}

/** tierwise.v1.IoLengthCount: the sampled references made by I/Os of one direction and length. */
export interface IoLengthCount {
  direction: Direction;
  /** The I/Os' length, 4 KiB blocks (>= 1). */
  lengthBlocks: number;
  references: bigint;
}

/**
 * tierwise.v1.WorkingSetShares: the agent's run of the service's working-set windows over one
 * batch (fixed-size SHARDS sample of maxSamples blocks, its LRU stack, every window's panes), as
 * each pane's share of the batch.
 */
export interface WorkingSetShares {
  /** s_max of the sample (the service's ShardsFixedSize.DEFAULT_MAX_SAMPLES). */
  maxSamples: number;
  /** The sample's T after the batch: 0 < T <= the batch's samplingThreshold, never rising. */
  samplingThreshold: bigint;
  /** The batch's last reference, Unix epoch ns (0: none). */
  lastReferenceUnixNano: bigint;
  /** By windowSeconds, then paneStartUnixNano ascending, one per pane. */
  shares: WindowShare[];
  /** The sample's id: random when the agent starts a sample afresh, kept when it restores it. */
  sampleId: bigint;
}

/** tierwise.v1.WindowShare: what a batch's references tell one pane of one window. */
export interface WindowShare {
  /** 0: 'all'; else the sliding window's length, seconds (3600, 86400, 604800). */
  windowSeconds: number;
  /** The pane's start, Unix epoch ns (a multiple of windowSeconds / 4 in ns); 0 for 'all'. */
  paneStartUnixNano: bigint;
  /** The reference that started the pane, Unix epoch ns. */
  paneFirstUnixNano: bigint;
  /** References made while the pane was its window's newest, and the reads among them. */
  references: bigint;
  readReferences: bigint;
  /** The sums of 1 / R over them, over the reads, and ('all' only) over first references to the sample's blocks. */
  weight: number;
  readWeight: number;
  firstWeight: number;
  /** Re-references whose previous access lies in the pane: scaled-distance buckets strictly ascending, each with its weight (> 0). */
  hitBuckets: number[];
  hitWeights: number[];
  /** The same for the reads. */
  readHitBuckets: number[];
  readHitWeights: number[];
  /** Repeats of a block, of a read block, of a written block (evictions included). */
  blockRepeats: bigint;
  readRepeats: bigint;
  writeRepeats: bigint;
}

/**
 * tierwise.v1.MiniatureSimulation: the batch's counts of the miniature simulations (Waldspurger
 * et al., USENIX ATC 2017) at one cache size C, over the references whose block has
 * H(L) mod P < T_C; each stands for P / T_C references.
 */
export interface MiniatureSimulation {
  /** C, bytes: a multiple of 4 KiB. */
  cacheBytes: bigint;
  /** T_C: 0 < T_C <= the batch's samplingThreshold. */
  samplingThreshold: bigint;
  /** The batch's references in this size's sample (>= 1). */
  references: bigint;
  /** The reads among `references`. */
  readReferences: bigint;
  /** Per policy of ReferenceBatch.miniaturePolicies (same length and order): misses among `references`. */
  misses: bigint[];
  /** Per policy, the same order: misses among the reads (<= readReferences, <= that policy's misses). */
  readMisses: bigint[];
}

/** tierwise.v1.ReferenceBatches: one host's reference batches in one request (POST /v1/refs/batches). */
export interface ReferenceBatches {
  batches: ReferenceBatch[];
}

/** tierwise.v1.IngestRecord: the Kafka value written by ingest. */
export interface IngestRecord {
  tenantId: string;
  agentId: string;
  batchId: string;
  /** Unix epoch, nanoseconds. */
  receivedUnixNano: bigint;
  /** An encoded ExportMetricsServiceRequest (one ResourceMetrics) or ReferenceBatch. */
  payload: Uint8Array;
}

// ---- opentelemetry.proto.common.v1 / resource.v1 ----

/** opentelemetry.proto.common.v1.AnyValue: exactly one member is set. */
export interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: bigint;
  doubleValue?: number;
  arrayValue?: { values: AnyValue[] };
  kvlistValue?: { values: KeyValue[] };
  bytesValue?: Uint8Array;
  stringValueStrindex?: number;
}

/** opentelemetry.proto.common.v1.KeyValue. */
export interface KeyValue {
  key: string;
  value: AnyValue | null;
  keyStrindex: number;
}

/** opentelemetry.proto.common.v1.InstrumentationScope. */
export interface InstrumentationScope {
  name: string;
  version: string;
  attributes: KeyValue[];
  droppedAttributesCount: number;
}

/** opentelemetry.proto.resource.v1.Resource. */
export interface Resource {
  attributes: KeyValue[];
  droppedAttributesCount: number;
  entityRefs: { schemaUrl: string; type: string; idKeys: string[]; descriptionKeys: string[] }[];
}

// ---- opentelemetry.proto.metrics.v1 ----

/** opentelemetry.proto.metrics.v1.AggregationTemporality (Tierwise uses DELTA). */
export enum AggregationTemporality {
  UNSPECIFIED = 0,
  DELTA = 1,
  CUMULATIVE = 2,
}

/** opentelemetry.proto.metrics.v1.Exemplar (not emitted by the agent). */
export interface Exemplar {
  filteredAttributes: KeyValue[];
  timeUnixNano: bigint;
  asDouble?: number;
  asInt?: bigint;
  spanId: Uint8Array;
  traceId: Uint8Array;
}

/** opentelemetry.proto.metrics.v1.NumberDataPoint: `asInt` (Tierwise) or `asDouble` is set. */
export interface NumberDataPoint {
  attributes: KeyValue[];
  /** Unix epoch, nanoseconds. */
  startTimeUnixNano: bigint;
  /** Unix epoch, nanoseconds. */
  timeUnixNano: bigint;
  asDouble?: number;
  asInt?: bigint;
  exemplars: Exemplar[];
  flags: number;
}

/**
 * opentelemetry.proto.metrics.v1.HistogramDataPoint: `bucketCounts` has
 * `explicitBounds.length + 1` entries; bucket i counts bounds[i-1] < x <= bounds[i].
 */
export interface HistogramDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: bigint;
  sum?: number;
  bucketCounts: bigint[];
  explicitBounds: number[];
  exemplars: Exemplar[];
  flags: number;
  min?: number;
  max?: number;
}

/** opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint.Buckets: `bucketCounts[i]` is index `offset + i`. */
export interface ExponentialHistogramBuckets {
  offset: number;
  bucketCounts: bigint[];
}

/**
 * opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint: bucket index i counts
 * base^i < x <= base^(i+1), base = 2^(2^-scale); values of 0 count in `zeroCount`.
 */
export interface ExponentialHistogramDataPoint {
  attributes: KeyValue[];
  startTimeUnixNano: bigint;
  timeUnixNano: bigint;
  count: bigint;
  sum?: number;
  scale: number;
  zeroCount: bigint;
  positive: ExponentialHistogramBuckets | null;
  negative: ExponentialHistogramBuckets | null;
  flags: number;
  exemplars: Exemplar[];
  min?: number;
  max?: number;
  zeroThreshold: number;
}

/** opentelemetry.proto.metrics.v1.ExponentialHistogram. */
export interface ExponentialHistogram {
  dataPoints: ExponentialHistogramDataPoint[];
  aggregationTemporality: AggregationTemporality;
}

/** opentelemetry.proto.metrics.v1.Gauge. */
export interface Gauge {
  dataPoints: NumberDataPoint[];
}

/** opentelemetry.proto.metrics.v1.Sum. */
export interface Sum {
  dataPoints: NumberDataPoint[];
  aggregationTemporality: AggregationTemporality;
  isMonotonic: boolean;
}

/** opentelemetry.proto.metrics.v1.Histogram. */
export interface Histogram {
  dataPoints: HistogramDataPoint[];
  aggregationTemporality: AggregationTemporality;
}

/** opentelemetry.proto.metrics.v1.Metric: exactly one data member is set. */
export interface Metric {
  name: string;
  description: string;
  unit: string;
  gauge?: Gauge;
  sum?: Sum;
  histogram?: Histogram;
  exponentialHistogram?: ExponentialHistogram;
  /** Not emitted by the agent; decoded untyped. */
  summary?: Record<string, unknown>;
  metadata: KeyValue[];
}

/** opentelemetry.proto.metrics.v1.ScopeMetrics. */
export interface ScopeMetrics {
  scope: InstrumentationScope | null;
  metrics: Metric[];
  schemaUrl: string;
}

/** opentelemetry.proto.metrics.v1.ResourceMetrics (Tierwise: one per volume). */
export interface ResourceMetrics {
  resource: Resource | null;
  scopeMetrics: ScopeMetrics[];
  schemaUrl: string;
}

/** opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest (OTLP/HTTP body). */
export interface ExportMetricsServiceRequest {
  resourceMetrics: ResourceMetrics[];
}

/** opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse. */
export interface ExportMetricsServiceResponse {
  partialSuccess: { rejectedDataPoints: bigint; errorMessage: string } | null;
}
