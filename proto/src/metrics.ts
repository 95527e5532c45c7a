/**
 * Constants of the agent telemetry contract, proto/METRICS.md (the single TypeScript
 * source; the C++ agent and the Java stream jobs mirror METRICS.md itself).
 */

/** OTLP instrumentation scope name of every agent metric. */
export const SCOPE_NAME = "tierwise.agent";
/** `service.name` of the agent's resource. */
export const SERVICE_NAME = "tierwise-agent";
/** Default export interval of the agent, seconds. */
export const DEFAULT_INTERVAL_SECONDS = 10;
/** Cache block size used by hits/misses and by the references, bytes (4 KiB). */
export const BLOCK_SIZE_BYTES = 4096;
/** HTTP header carrying the agent's batch id (a UUID) on `POST /v1/metrics`. */
export const BATCH_ID_HEADER = "X-Tierwise-Batch-Id";

/** Largest value of a Sum data point or histogram bucket count (METRICS.md "Limits"): 2^48 - 1. */
export const MAX_DELTA_VALUE = 2n ** 48n - 1n;

/** Largest gauge value (METRICS.md "Limits"): 2^62. */
export const MAX_GAUGE_VALUE = 2n ** 62n;

/** Kafka topics written by ingest; value = `tierwise.v1.IngestRecord`, key `<tenant_id>/<volume_id>`. */
export const KAFKA_TOPICS = {
  metrics: "telemetry.metrics.v1",
  refs: "telemetry.refs.v1",
} as const;

/** Metric names (METRICS.md "Metrics" table). */
export const METRIC = {
  ioOperations: "tierwise.io.operations",
  ioBytes: "tierwise.io.bytes",
  ioSize: "tierwise.io.size",
  ioSizeBytes: "tierwise.io.size.bytes",
  ioLatency: "tierwise.io.latency",
  ioLatencyExponential: "tierwise.io.latency.exponential",
  ioOperationsPeak: "tierwise.io.operations.peak",
  ioBytesPeak: "tierwise.io.bytes.peak",
  ioLatencyPeak: "tierwise.io.latency.peak",
  ioSeekDistance: "tierwise.io.seek_distance",
  ioSeekDistanceClosest: "tierwise.io.seek_distance.closest",
  ioOutstanding: "tierwise.io.outstanding",
  ioInterarrival: "tierwise.io.interarrival",
  ioLatencyVscsiStats: "tierwise.io.latency.vscsistats",
  ioAlignment: "tierwise.io.alignment",
  ioAlignmentMisalignedBytes: "tierwise.io.alignment.misaligned_bytes",
  ioAlignmentBlocks: "tierwise.io.alignment.blocks",
  cacheHits: "tierwise.cache.hits",
  cacheMisses: "tierwise.cache.misses",
  cachePopulation: "tierwise.cache.population",
  cacheEvictions: "tierwise.cache.evictions",
  cacheDestaged: "tierwise.cache.destaged",
  cacheOccupancy: "tierwise.cache.occupancy",
  cacheCapacity: "tierwise.cache.capacity",
  cacheDirty: "tierwise.cache.dirty",
  cacheDestageBacklog: "tierwise.cache.destage.backlog",
  cacheDestageRate: "tierwise.cache.destage.rate",
  cacheDestageRateLimit: "tierwise.cache.destage.rate_limit",
  cacheJournalWrites: "tierwise.cache.journal.writes",
  cacheFallbacks: "tierwise.cache.fallbacks",
  cacheDestageErrors: "tierwise.cache.destage.errors",
  cacheTierErrors: "tierwise.cache.tier.errors",
  replicationBytes: "tierwise.replication.bytes",
  replicationPeers: "tierwise.replication.peers",
  hostCpuTime: "system.cpu.time",
  hostCpuCount: "system.cpu.logical.count",
  consumerCpuTime: "tierwise.consumer.cpu.time",
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

/**
 * OTLP data kind of each metric (Sums are monotonic and delta, int but the CPU times, doubles of
 * seconds; Gauges are int but tierwise.io.latency.peak, a double).
 */
export type MetricKind = "sum" | "histogram" | "exponentialHistogram" | "gauge";

/** Per-metric kind and UCUM unit, as listed in METRICS.md. */
export const METRIC_SPECS: Readonly<Record<MetricName, { kind: MetricKind; unit: string }>> = {
  [METRIC.ioOperations]: { kind: "sum", unit: "{operation}" },
  [METRIC.ioBytes]: { kind: "sum", unit: "By" },
  [METRIC.ioSize]: { kind: "histogram", unit: "By" },
  [METRIC.ioSizeBytes]: { kind: "sum", unit: "By" },
  [METRIC.ioLatency]: { kind: "histogram", unit: "us" },
  [METRIC.ioLatencyExponential]: { kind: "exponentialHistogram", unit: "us" },
  [METRIC.ioOperationsPeak]: { kind: "gauge", unit: "{operation}/s" },
  [METRIC.ioBytesPeak]: { kind: "gauge", unit: "By/s" },
  [METRIC.ioLatencyPeak]: { kind: "gauge", unit: "us" },
  [METRIC.ioSeekDistance]: { kind: "histogram", unit: "{sector}" },
  [METRIC.ioSeekDistanceClosest]: { kind: "histogram", unit: "{sector}" },
  [METRIC.ioOutstanding]: { kind: "histogram", unit: "{operation}" },
  [METRIC.ioInterarrival]: { kind: "histogram", unit: "us" },
  [METRIC.ioLatencyVscsiStats]: { kind: "histogram", unit: "us" },
  [METRIC.ioAlignment]: { kind: "histogram", unit: "{sector}" },
  [METRIC.ioAlignmentMisalignedBytes]: { kind: "sum", unit: "By" },
  [METRIC.ioAlignmentBlocks]: { kind: "sum", unit: "{block}" },
  [METRIC.cacheHits]: { kind: "sum", unit: "{block}" },
  [METRIC.cacheMisses]: { kind: "sum", unit: "{block}" },
  [METRIC.cachePopulation]: { kind: "sum", unit: "By" },
  [METRIC.cacheEvictions]: { kind: "sum", unit: "By" },
  [METRIC.cacheDestaged]: { kind: "sum", unit: "By" },
  [METRIC.cacheOccupancy]: { kind: "gauge", unit: "By" },
  [METRIC.cacheCapacity]: { kind: "gauge", unit: "By" },
  [METRIC.cacheDirty]: { kind: "gauge", unit: "By" },
  [METRIC.cacheDestageBacklog]: { kind: "gauge", unit: "By" },
  [METRIC.cacheDestageRate]: { kind: "gauge", unit: "By/s" },
  [METRIC.cacheDestageRateLimit]: { kind: "gauge", unit: "By/s" },
  [METRIC.cacheJournalWrites]: { kind: "sum", unit: "By" },
  [METRIC.cacheFallbacks]: { kind: "sum", unit: "{event}" },
  [METRIC.cacheDestageErrors]: { kind: "sum", unit: "{error}" },
  [METRIC.cacheTierErrors]: { kind: "sum", unit: "{error}" },
  [METRIC.replicationBytes]: { kind: "sum", unit: "By" },
  [METRIC.replicationPeers]: { kind: "gauge", unit: "{peer}" },
  [METRIC.hostCpuTime]: { kind: "sum", unit: "s" },
  [METRIC.hostCpuCount]: { kind: "gauge", unit: "{cpu}" },
  [METRIC.consumerCpuTime]: { kind: "sum", unit: "s" },
};

/** Resource and data point attribute keys. */
export const ATTR = {
  serviceName: "service.name",
  serviceVersion: "service.version",
  hostId: "host.id",
  hostName: "host.name",
  volumeId: "tierwise.volume.id",
  volumeName: "tierwise.volume.name",
  volumeSource: "tierwise.volume.source",
  clusterId: "tierwise.cluster.id",
  cacheMode: "tierwise.cache.mode",
  ioDirection: "io.direction",
  ioSource: "io.source",
  ioSizeBin: "tierwise.io.size_bin",
  ioAlignmentLayout: "tierwise.io.alignment.layout",
  cpuMode: "cpu.mode",
  consumerKind: "tierwise.consumer.kind",
} as const;

/** Values of `io.direction`. */
export const IO_DIRECTIONS = ["read", "write"] as const;
export type IoDirection = (typeof IO_DIRECTIONS)[number];

/** Values of `io.direction` on the vscsiStats families: `all` is every command in issue order. */
export const VSCSI_DIRECTIONS = ["read", "write", "all"] as const;
export type VscsiDirection = (typeof VSCSI_DIRECTIONS)[number];

/**
 * Values of `tierwise.io.alignment.layout` on `tierwise.io.alignment.blocks`: the 4 KiB blocks
 * the commands span as `issued`, and if each had started on a 4 KiB boundary (`aligned`).
 */
export const ALIGNMENT_LAYOUTS = ["issued", "aligned"] as const;
export type AlignmentLayout = (typeof ALIGNMENT_LAYOUTS)[number];

/**
 * Values of `io.source`: `frontend` counts every I/O the VM issued once; a read hit is also
 * counted at `cache`, a miss and a write-through write at `datastore`.
 */
export const IO_SOURCES = ["frontend", "cache", "peer", "datastore"] as const;
export type IoSource = (typeof IO_SOURCES)[number];

/**
 * Values of `tierwise.volume.source`: `vscsistats` for figures imported from `vscsiStats -p all -c`
 * output; absent, the volume is measured by the agent (`agent`, as the inventory stores it).
 */
export const VOLUME_SOURCES = ["agent", "vscsistats"] as const;
export type VolumeSource = (typeof VOLUME_SOURCES)[number];

/**
 * Values of `cpu.mode` on `system.cpu.time` (OpenTelemetry semantic conventions, system metrics):
 * every mode of the host's `/proc/stat`, so their sum is the interval times the CPUs;
 * `interrupt` = irq + softirq. The busy modes are all but `idle`, `iowait` and `steal`.
 */
export const HOST_CPU_MODES = ["user", "nice", "system", "idle", "iowait", "interrupt", "steal"] as const;
export type HostCpuMode = (typeof HOST_CPU_MODES)[number];

/** Values of `cpu.mode` on `tierwise.consumer.cpu.time`. */
export const CONSUMER_CPU_MODES = ["user", "system"] as const;
export type ConsumerCpuMode = (typeof CONSUMER_CPU_MODES)[number];

/**
 * Values of `tierwise.consumer.kind`: `process`, the processes attached to the volume's NBD export
 * (the Unix socket's peer); `cgroup`, the cgroup v2 directory the volumes file names.
 */
export const CONSUMER_KINDS = ["process", "cgroup"] as const;
export type ConsumerKind = (typeof CONSUMER_KINDS)[number];

/** Values of `tierwise.cache.mode`. */
export const CACHE_MODES = ["write-through", "write-back"] as const;
export type CacheMode = (typeof CACHE_MODES)[number];

/**
 * vscsiStats ioLength histogram bin upper bounds, bytes, inclusive (VMware vscsiStats
 * `ioLength` histogram). Used as `explicit_bounds` of `tierwise.io.size`; the 18th bin is
 * everything above the last bound.
 */
export const IO_LENGTH_BOUNDS_BYTES: readonly number[] = Object.freeze([
  512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384, 32768, 49152, 65535, 65536, 81920,
  131072, 262144, 524288,
]);

/** Label of the open-ended last ioLength bin. */
export const IO_LENGTH_OVERFLOW_LABEL = ">524288";

/** One ioLength bin: its `tierwise.io.size_bin` label and inclusive upper bound (null = open). */
export interface IoLengthBin {
  readonly label: string;
  readonly upperBytes: number | null;
}

/** The 18 ioLength bins in order: labels `"512"` … `"524288"`, then `">524288"`. */
export const IO_LENGTH_BINS: readonly IoLengthBin[] = Object.freeze([
  ...IO_LENGTH_BOUNDS_BYTES.map((upperBytes) => Object.freeze({ label: String(upperBytes), upperBytes })),
  Object.freeze({ label: IO_LENGTH_OVERFLOW_LABEL, upperBytes: null }),
]);

/**
 * Index of the ioLength bin holding an I/O of `bytes` bytes: the first bin whose inclusive
 * upper bound is >= bytes (OTLP explicit-bounds semantics: bucket i holds
 * bounds[i-1] < x <= bounds[i]), or 17 (`>524288`).
 *
 * @param bytes I/O length in bytes; a non-negative integer.
 * @throws RangeError when `bytes` is negative or not an integer.
 */
export function ioLengthBinIndex(bytes: number): number {
  if (!Number.isInteger(bytes) || bytes < 0) {
    throw new RangeError(`I/O length must be a non-negative integer of bytes, got ${bytes}`);
  }
  const i = IO_LENGTH_BOUNDS_BYTES.findIndex((upper) => bytes <= upper);
  return i === -1 ? IO_LENGTH_BOUNDS_BYTES.length : i;
}

/** The ioLength bin (label and bound) of an I/O of `bytes` bytes; see {@link ioLengthBinIndex}. */
export function ioLengthBin(bytes: number): IoLengthBin {
  return IO_LENGTH_BINS[ioLengthBinIndex(bytes)];
}

/**
 * Latency histogram bounds of `tierwise.io.latency`, microseconds, log-linear 1-2-5
 * (METRICS.md); 20 buckets including the open last one.
 */
export const LATENCY_BOUNDS_US: readonly number[] = Object.freeze([
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000,
  500000, 1000000,
]);

/**
 * vscsiStats seekDistance bounds, 512-byte sectors, signed, inclusive upper bounds (METRICS.md):
 * `explicit_bounds` of `tierwise.io.seek_distance` and `tierwise.io.seek_distance.closest`; 34
 * buckets including the open last one. A sequential stream lands in the bucket of bound 1.
 */
export const SEEK_DISTANCE_BOUNDS_SECTORS: readonly number[] = Object.freeze([
  -500000, -100000, -50000, -10000, -5000, -1000, -500, -128, -64, -32, -16, -8, -6, -4, -2, -1, 0,
  1, 2, 4, 6, 8, 16, 32, 64, 128, 500, 1000, 5000, 10000, 50000, 100000, 500000,
]);

/** vscsiStats outstandingIOs bounds (I/Os in flight at issue, the new one included; METRICS.md): `tierwise.io.outstanding`. */
export const OUTSTANDING_IOS_BOUNDS: readonly number[] = Object.freeze([1, 2, 4, 6, 8, 12, 16, 20, 24, 28, 32, 64]);

/** vscsiStats interarrival bounds, microseconds (METRICS.md): `tierwise.io.interarrival`. */
export const INTERARRIVAL_BOUNDS_US: readonly number[] = Object.freeze([1, 10, 100, 500, 1000, 5000, 15000, 30000, 50000, 100000]);

/** vscsiStats latency bounds, microseconds (METRICS.md): `tierwise.io.latency.vscsistats`, the interarrival bounds. */
export const VSCSI_LATENCY_BOUNDS_US: readonly number[] = INTERARRIVAL_BOUNDS_US;

/**
 * Bounds of `tierwise.io.alignment` (METRICS.md "Block alignment"): sectors (512 bytes) into the
 * command's 4 KiB block; bucket k holds the commands that start k sectors into their block (0:
 * aligned), the last one 7.
 */
export const ALIGNMENT_BOUNDS_SECTORS: readonly number[] = Object.freeze([0, 1, 2, 3, 4, 5, 6]);
