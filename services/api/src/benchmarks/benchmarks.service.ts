import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../auth/principal.js';
import type { BenchmarksDto } from './benchmarks.dto.js';
import { BenchmarksRepository } from './benchmarks.repository.js';

/** Days of 1 d rollups a benchmark covers. */
export const BENCHMARK_WINDOW_DAYS = 7;
/** Tenants a cohort needs before it is published (fixed inside fleet_benchmarks()). */
export const BENCHMARK_MIN_TENANTS = 5;

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
      cohorts: await this.benchmarks.cohorts(db, BENCHMARK_WINDOW_DAYS),
    }));
  }
}
