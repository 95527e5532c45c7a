import { ApiProperty } from '@nestjs/swagger';

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

/** Bytes per second by where they were served (storage type). */
export class SeriesStorageDto {
  @ApiProperty({ description: 'what the VM observed: front-end bytes read and written per second' })
  vm_observed!: number;
  @ApiProperty({ description: 'served by the tier: cache hits x 4 KiB per second' })
  cache!: number;
  @ApiProperty({ description: 'reached the datastore: front-end bytes minus tier hits, per second (writes of write-through included)' })
  datastore!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'sent to peers; null: the rollups do not carry io.source=peer yet' })
  peer!: number | null;
}

/** The custom breakdown's I/Os (direction and ioLength bins of the query). */
export class SeriesSelectionDto extends SeriesLatencyDto {
  @ApiProperty({ description: 'I/Os per second of the selection' })
  ops_per_s!: number;
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
  @ApiProperty({ type: SeriesStorageDto })
  storage!: SeriesStorageDto;
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
