import { ApiProperty } from '@nestjs/swagger';

/** The caller's band among a figure's published quartiles (docs/benchmarks.md "Rank band"). */
export const RANK_BANDS = ['below_p25', 'p25_p50', 'p50_p75', 'above_p75'] as const;
export type RankBand = (typeof RANK_BANDS)[number];

/** A scalar figure as fleet_benchmarks() returns it: the caller's value and the published quartiles. */
export type ScalarFigureRow = Omit<ScalarStandingDto, 'rank_band'>;

/** A row of fleet_benchmarks() (db/migrations/1700000000840_benchmark_eligibility.sql). */
export interface CohortBenchmarkRow {
  media: string;
  workload_class: string;
  published: boolean;
  tenant_count: number | null;
  volume_ids: string[];
  read_share: ScalarFigureRow;
  wss_per_capacity: ScalarFigureRow;
  latency: LatencyStandingDto[];
}

/**
 * The caller's figure and, for a published cohort, the cohort's quartiles (differentially private:
 * read from a histogram with Laplace noise) and the caller's band among them.
 */
export class ScalarStandingDto {
  @ApiProperty({ type: Number, nullable: true, description: "the caller's own value over its volumes of the cohort (exact)" })
  own!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "25th percentile over the cohort's participants (each independent actor weighs the same; Laplace noise, see epsilon); null when not published",
  })
  cohort_p25!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '50th percentile; null when not published' })
  cohort_p50!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '75th percentile; null when not published' })
  cohort_p75!: number | null;
  @ApiProperty({
    enum: RANK_BANDS,
    nullable: true,
    description:
      "where the caller's own value lies among the published quartiles (below p25, p25 to p50, p50 to p75, p75 and above): " +
      'a band of a quarter of the cohort, derived from the published figures only; replaces the former exact `rank`. Null when not published',
  })
  rank_band!: RankBand | null;
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
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "the cohort's median latency, µs (participants weigh the same; Laplace noise); null unless 5 participants have I/O in this bin",
  })
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
  @ApiProperty({ description: 'whether the cohort has at least min_tenants participants (independent actors); cohort figures are null otherwise' })
  published!: boolean;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'participants counted in the cohort (counted tenants, one per independent actor), with Laplace noise, at least min_tenants; null when not published',
  })
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
  @ApiProperty({
    description:
      'participants a cohort (and a latency bin) needs before its figures are published: counted tenants of distinct owner e-mail domains, one per domain',
  })
  min_tenants!: number;
  @ApiProperty({ description: 'days of the window on which a tenant needs 1 000 front-end I/Os or more on its volumes of a cohort to be counted in it' })
  min_days!: number;
  @ApiProperty({ description: 'differential-privacy ε of each published figure (Laplace mechanism) per daily release; docs/benchmarks.md' })
  epsilon!: number;
  @ApiProperty({ type: [CohortBenchmarkDto] })
  cohorts!: CohortBenchmarkDto[];
}
