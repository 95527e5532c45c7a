import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { CohortBenchmarkRow } from './benchmarks.dto.js';

@Injectable()
export class BenchmarksRepository {
  /**
   * The caller's cohorts over the last `days` days of 1 d rollups: fleet_benchmarks() reads
   * every tenant's rows (SECURITY DEFINER) but returns only the transaction's tenant's own figures
   * and, for cohorts of k = 5 independent actors, their quartiles with Laplace noise.
   * @param db a client in the tenant's transaction (withTenant sets current_tenant_id()).
   */
  async cohorts(db: Queryable, days: number): Promise<CohortBenchmarkRow[]> {
    const { rows } = await db.query<CohortBenchmarkRow>('SELECT * FROM fleet_benchmarks($1)', [days]);
    return rows;
  }
}
