import { ApiProperty } from '@nestjs/swagger';

/** A row of fleet_benchmarks() (db/migrations/1700000000201_fleet_benchmarks.sql). */
export interface CohortBenchmarkRow {
  media: string;
  workload_class: string;
  published: boolean;
  tenant_count: number | null;
  volume_ids: string[];
  read_share: ScalarStandingDto;
  wss_per_capacity: ScalarStandingDto;
  latency: LatencyStandingDto[];
}

/** The caller's figure and, for a published cohort, the cohort's quartiles and the caller's rank. */
export class ScalarStandingDto {
  @ApiProperty({ type: Number, nullable: true, description: "the caller's own value over its volumes of the cohort" })
  own!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "25th percentile over the cohort's tenants (each tenant weighs the same); null when not published" })
  cohort_p25!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '50th percentile; null when not published' })
  cohort_p50!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '75th percentile; null when not published' })
  cohort_p75!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "share (0..1) of the cohort's tenants whose value is below the caller's; null when not published" })
  rank!: number | null;
}

/** Front-end latency percentiles of one direction and vscsiStats ioLength bin, microseconds. */
export class LatencyStandingDto {
  @ApiProperty({ enum: ['read', 'write'] })
  direction!: 'read' | 'write';
  @ApiProperty({ description: "ioLength bin: upper bound in bytes ('512' .. '524288') or '>524288'" })
  size_bin!: string;
  @ApiProperty({ type: Number, nullable: true, description: "the caller's median latency, µs" })
  own_p50_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the caller's 95th percentile latency, µs" })
  own_p95_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the caller's 99th percentile latency, µs" })
  own_p99_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the cohort's median latency, µs (tenants weigh the same); null unless 5 tenants have I/O in this bin" })
  cohort_p50_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the cohort's 95th percentile latency, µs" })
  cohort_p95_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the cohort's 99th percentile latency, µs" })
  cohort_p99_us!: number | null;
}

/** A cohort the caller has volumes in, and where the caller stands in it. */
export class CohortBenchmarkDto {
  @ApiProperty({ enum: ['ram', 'nvme', 'none'], description: "media of the volumes' current tier recommendation ('none' without one)" })
  media!: string;
  @ApiProperty({ enum: ['read-heavy', 'mixed', 'write-heavy'], description: 'reads >= 70 % of front-end I/Os, between, or <= 30 %' })
  workload_class!: string;
  @ApiProperty({ description: 'whether the cohort has at least min_tenants tenants; cohort figures are null otherwise' })
  published!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'tenants in the cohort; null when not published' })
  tenant_count!: number | null;
  @ApiProperty({ type: [String], description: "the caller's volumes in this cohort" })
  volume_ids!: string[];
  @ApiProperty({ type: ScalarStandingDto, description: 'reads / (reads + writes), front-end I/Os' })
  read_share!: ScalarStandingDto;
  @ApiProperty({ type: ScalarStandingDto, description: 'working set size / tier capacity' })
  wss_per_capacity!: ScalarStandingDto;
  @ApiProperty({ type: [LatencyStandingDto], description: 'latency percentiles per direction and ioLength bin where the caller has I/O' })
  latency!: LatencyStandingDto[];
}

export class BenchmarksDto {
  @ApiProperty({ description: 'days of 1 d rollups the benchmarks cover (ending today)' })
  window_days!: number;
  @ApiProperty({ description: 'tenants a cohort (and a latency bin) needs before its figures are published' })
  min_tenants!: number;
  @ApiProperty({ type: [CohortBenchmarkDto] })
  cohorts!: CohortBenchmarkDto[];
}
