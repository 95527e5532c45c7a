import { ApiProperty } from '@nestjs/swagger';
import { IoTotalsDto } from '../fleet/io-totals.dto.js';

/** Latency percentiles of one direction and ioLength bin in one window, from its merged histogram. */
export class RollupLatencyDto {
  @ApiProperty({ enum: ['read', 'write'] })
  direction!: 'read' | 'write';
  @ApiProperty({ description: "ioLength bin: upper bound in bytes ('512' .. '524288') or '>524288'" })
  size_bin!: string;
  @ApiProperty({ description: 'front-end I/Os in the histogram' })
  count!: number;
  @ApiProperty({ description: 'median latency, µs (interpolated inside its histogram bucket)' })
  p50_us!: number;
  @ApiProperty({ description: '95th percentile latency, µs' })
  p95_us!: number;
  @ApiProperty({ description: '99th percentile latency, µs' })
  p99_us!: number;
}

/** One window of one scope id. */
export class RollupPointDto extends IoTotalsDto {
  @ApiProperty({ description: 'window start, RFC 3339' })
  window_start!: string;
  @ApiProperty({ description: 'volumes that reported in the window' })
  volumes!: number;
  @ApiProperty({ description: 'bytes evicted from the tier' })
  evicted_bytes!: number;
  @ApiProperty({ description: "sum over volumes of each one's latest occupancy in the window, bytes" })
  occupancy_bytes!: number;
  @ApiProperty({ description: "sum over volumes of each one's latest tier capacity in the window, bytes" })
  capacity_bytes!: number;
  @ApiProperty({ type: [RollupLatencyDto] })
  latency!: RollupLatencyDto[];
}

export class RollupSeriesDto {
  @ApiProperty({ description: 'volume, host or cluster id, or the tenant id' })
  scope_id!: string;
  @ApiProperty({ type: [RollupPointDto] })
  points!: RollupPointDto[];
}

export class RollupsDto {
  @ApiProperty({ enum: ['volume', 'host', 'cluster', 'tenant'] })
  scope!: string;
  @ApiProperty({ enum: ['10s', '1m', '1h', '1d'] })
  resolution!: string;
  @ApiProperty({ description: 'window length, seconds' })
  window_seconds!: number;
  @ApiProperty({ description: 'start of the range, RFC 3339 (inclusive)' })
  from!: string;
  @ApiProperty({ description: 'end of the range, RFC 3339 (exclusive)' })
  to!: string;
  @ApiProperty({ description: 'more than 2000 points matched; narrow the range or name a scope_id' })
  truncated!: boolean;
  @ApiProperty({ type: [RollupSeriesDto] })
  series!: RollupSeriesDto[];
}

/** A row of RollupsRepository.points (bigint sums cast to float8). */
export interface RollupPointRow extends Omit<RollupPointDto, 'window_start'> {
  scope_id: string;
  window_start: Date;
}
