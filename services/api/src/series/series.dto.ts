import { ApiProperty } from '@nestjs/swagger';
import { CONSUMER_KINDS, type ConsumerKind } from '@tierwise/proto';

/** Latency of a set of front-end I/Os, from their merged histogram (µs, interpolated inside a bucket). */
export class SeriesLatencyDto {
  @ApiProperty({ description: 'front-end I/Os in the merged histogram' })
  count!: number;
  @ApiProperty({ description: 'median latency, µs' })
  p50_us!: number;
  @ApiProperty({ description: '95th percentile latency, µs' })
  p95_us!: number;
  @ApiProperty({ description: '99th percentile latency, µs' })
  p99_us!: number;
  @ApiProperty({ description: "the worst single rollup window's 99th percentile inside the point, µs (spikes survive downsampling)" })
  p99_max_us!: number;
}

/** One ioLength bin of one direction ('all' = both merged) in one point. */
export class SeriesSizeDto extends SeriesLatencyDto {
  @ApiProperty({ enum: ['read', 'write', 'all'] })
  direction!: 'read' | 'write' | 'all';
  @ApiProperty({ description: "vscsiStats ioLength bin: upper bound in bytes ('512' .. '524288') or '>524288'" })
  size_bin!: string;
  @ApiProperty({ description: 'I/Os per second of this bin and direction' })
  ops_per_s!: number;
  @ApiProperty({ description: "share of the point's I/Os of the same direction (all: of every I/O), 0..1" })
  share!: number;
}

/** What one storage source served in a point: I/Os, bytes and latency (proto/METRICS.md io.source). */
export class SeriesSourceDto {
  @ApiProperty({ description: 'I/Os per second this source served (part of), reads and writes' })
  iops!: number;
  @ApiProperty({ description: 'read I/Os per second' })
  read_iops!: number;
  @ApiProperty({ description: 'write I/Os per second' })
  write_iops!: number;
  @ApiProperty({ description: 'bytes per second this source served, reads and writes' })
  bytes_per_s!: number;
  @ApiProperty({ description: 'bytes read per second' })
  read_bytes_per_s!: number;
  @ApiProperty({ description: 'bytes written per second' })
  write_bytes_per_s!: number;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true, description: "this source's latency, both directions, from its merged histogram" })
  latency!: SeriesLatencyDto | null;
}

/**
 * The storage-type breakdown: where the point's I/O was served. A source is null when no rollup
 * window of the point carried it (a write-through volume sends nothing to peers; windows written
 * before the rollups kept sources carry none but the VM-observed figures).
 */
export class SeriesSourcesDto {
  @ApiProperty({ type: SeriesSourceDto, description: 'what the VM observed: every front-end I/O once (io.source=frontend)' })
  vm_observed!: SeriesSourceDto;
  @ApiProperty({ type: SeriesSourceDto, nullable: true, description: 'the tier: read hits and, in write-back, writes journaled on it' })
  cache!: SeriesSourceDto | null;
  @ApiProperty({ type: SeriesSourceDto, nullable: true, description: 'WB+n peers: write-back writes replicated to them (bytes: one copy), latency until every peer acknowledged' })
  peer!: SeriesSourceDto | null;
  @ApiProperty({ type: SeriesSourceDto, nullable: true, description: 'the datastore: read misses and write-through writes' })
  datastore!: SeriesSourceDto | null;
}

/** The custom breakdown's I/Os (direction and ioLength bins of the query). */
export class SeriesSelectionDto extends SeriesLatencyDto {
  @ApiProperty({ description: 'I/Os per second of the selection' })
  ops_per_s!: number;
}

/**
 * Storage-bound CPU beside the I/O (docs/workload.md): the host's CPU and the volume's consumer's
 * over the point's windows, from the agent's `system.cpu.time` and `tierwise.consumer.cpu.time`.
 */
export class SeriesCpuDto {
  @ApiProperty({ description: "share of all the host's CPUs busy (user, nice, system, interrupt), 0..1" })
  host_busy!: number;
  @ApiProperty({ description: "share of all the host's CPUs idle with I/O outstanding (iowait), 0..1" })
  host_iowait!: number;
  @ApiProperty({ description: 'share stolen by the hypervisor (steal), 0..1' })
  host_steal!: number;
  @ApiProperty({ description: "the host's logical CPUs" })
  host_cpus!: number;
  @ApiProperty({ type: Number, nullable: true, description: "the volume's consumer's CPU seconds per second (1 = one core busy); null when the agent could name no consumer" })
  consumer_cores!: number | null;
  @ApiProperty({ type: String, enum: CONSUMER_KINDS, nullable: true, description: 'process: the processes attached to the NBD export; cgroup: the cgroup the volumes file names' })
  consumer_kind!: ConsumerKind | null;
  @ApiProperty({ type: Number, nullable: true, description: "CPU µs per front-end I/O: the consumer's, else the host's busy time; null without I/O" })
  cpu_us_per_io!: number | null;
}

/** One point: the rollup windows of one bucket merged. Rates are per second of reported time. */
export class SeriesPointDto {
  @ApiProperty({ description: 'bucket start, RFC 3339' })
  t!: string;
  @ApiProperty({ description: 'rollup windows merged into this point' })
  windows!: number;
  @ApiProperty({ description: 'front-end read I/Os per second' })
  read_iops!: number;
  @ApiProperty({ description: 'front-end write I/Os per second' })
  write_iops!: number;
  @ApiProperty({ description: 'lowest IOPS (read + write) of a single window inside the point' })
  iops_min!: number;
  @ApiProperty({ description: 'highest IOPS of a single window inside the point' })
  iops_max!: number;
  @ApiProperty({ description: 'front-end bytes read per second' })
  read_bytes_per_s!: number;
  @ApiProperty({ description: 'front-end bytes written per second' })
  write_bytes_per_s!: number;
  @ApiProperty({ description: 'lowest throughput (read + write, bytes/s) of a single window inside the point' })
  throughput_min!: number;
  @ApiProperty({ description: 'highest throughput of a single window inside the point' })
  throughput_max!: number;
  @ApiProperty({ type: SeriesSourcesDto })
  sources!: SeriesSourcesDto;
  @ApiProperty({ type: Number, nullable: true, description: 'tier hits / lookups, 4 KiB blocks, all directions' })
  hit_ratio!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'tier hit ratio of reads' })
  read_hit_ratio!: number | null;
  @ApiProperty({ description: "tier occupancy of the point's last window, bytes" })
  occupancy_bytes!: number;
  @ApiProperty({ description: "tier capacity of the point's last window, bytes" })
  capacity_bytes!: number;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true, description: 'every front-end I/O' })
  latency!: SeriesLatencyDto | null;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true })
  read_latency!: SeriesLatencyDto | null;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true })
  write_latency!: SeriesLatencyDto | null;
  @ApiProperty({ type: SeriesCpuDto, nullable: true, description: "the host's and the consumer's CPU beside the I/O; null when no window of the point carried CPU time (a replay, an import, an older agent)" })
  cpu!: SeriesCpuDto | null;
  @ApiProperty({ type: SeriesSelectionDto, nullable: true, description: 'the custom breakdown; null unless direction or size_bins was given' })
  selection!: SeriesSelectionDto | null;
  @ApiProperty({ type: [SeriesSizeDto], description: 'block-size distribution and latency by block size (heatmap cells); empty unless sizes=true' })
  sizes!: SeriesSizeDto[];
}

export class SeriesDto {
  @ApiProperty({ enum: ['volume', 'host', 'cluster', 'tenant'] })
  scope!: string;
  @ApiProperty()
  scope_id!: string;
  @ApiProperty({ description: 'start of the range, RFC 3339 (inclusive)' })
  from!: string;
  @ApiProperty({ description: 'end of the range, RFC 3339 (exclusive)' })
  to!: string;
  @ApiProperty({ enum: ['10s', '1m', '1h', '1d'], description: 'rollup resolution read' })
  resolution!: string;
  @ApiProperty({ description: 'rollup window, seconds' })
  window_seconds!: number;
  @ApiProperty({ description: 'width of one point, seconds (a whole number of windows, epoch-aligned)' })
  bucket_seconds!: number;
  @ApiProperty({ description: 'rollup windows read' })
  windows_read!: number;
  @ApiProperty({ type: [String], description: 'ioLength bins present, ascending' })
  size_bins!: string[];
  @ApiProperty({ type: [SeriesPointDto], description: 'points with data, ascending; a missing bucket had no report' })
  points!: SeriesPointDto[];
}
