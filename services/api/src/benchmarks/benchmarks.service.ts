import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import type { BenchmarksDto, RankBand, ScalarFigureRow, ScalarStandingDto } from './benchmarks.dto.js';
import { BenchmarksRepository } from './benchmarks.repository.js';

/** Days of 1 d rollups a benchmark covers. */
export const BENCHMARK_WINDOW_DAYS = 7;
/** Participants (independent actors) a cohort needs before it is published (fixed inside fleet_benchmarks()). */
export const BENCHMARK_MIN_TENANTS = 5;
/** Days with 1 000 front-end I/Os a tenant needs to be counted in a cohort (fixed inside fleet_benchmarks()). */
export const BENCHMARK_MIN_DAYS = 7;
/** ε of each published figure's Laplace noise (fixed inside benchmark_noisy_counts()). */
export const BENCHMARK_EPSILON = 1;

/**
 * The band of `own` among the published quartiles: below p25, [p25, p50), [p50, p75) or p75 and
 * above; null when the caller has no value or the cohort publishes none. A function of the
 * published figures and the caller's own value only (post-processing, docs/benchmarks.md).
 */
export function rankBand({ own, cohort_p25, cohort_p50, cohort_p75 }: ScalarFigureRow): RankBand | null {
  if (own == null || cohort_p25 == null || cohort_p50 == null || cohort_p75 == null) return null;
  if (own < cohort_p25) return 'below_p25';
  if (own < cohort_p50) return 'p25_p50';
  return own < cohort_p75 ? 'p50_p75' : 'above_p75';
}

const standing = (figure: ScalarFigureRow): ScalarStandingDto => ({ ...figure, rank_band: rankBand(figure) });

@Injectable()
export class BenchmarksService {
  constructor(
    private readonly database: DatabaseService,
    private readonly benchmarks: BenchmarksRepository,
  ) {}

  /** Where the caller's tenant stands in each fleet cohort it has volumes in. */
  get(auth: Principal): Promise<BenchmarksDto> {
    return this.database.withTenant(auth.tenantId, async (db) => ({
      window_days: BENCHMARK_WINDOW_DAYS,
      min_tenants: BENCHMARK_MIN_TENANTS,
      min_days: BENCHMARK_MIN_DAYS,
      epsilon: BENCHMARK_EPSILON,
      cohorts: (await this.benchmarks.cohorts(db, BENCHMARK_WINDOW_DAYS)).map((row) => ({
        ...row,
        read_share: standing(row.read_share),
        wss_per_capacity: standing(row.wss_per_capacity),
      })),
    }));
  }
}
