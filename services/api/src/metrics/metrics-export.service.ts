import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { stringify } from 'csv-stringify/sync';
import type { Principal } from '../identity/principal.js';
import { PolicyRepository } from '../policies/policy.repository.js';
import { CSV_COLUMNS, csvRecord, DEFAULT_EXPORT_RANGE_SECONDS, MAX_EXPORT_RANGE_SECONDS, type MetricsExportQuery } from './metrics-export.dto.js';
import { MetricsExportRepository } from './metrics-export.repository.js';

/** A CSV export and the range it covers. */
export interface MetricsCsv {
  csv: string;
  from: Date;
  to: Date;
  rows: number;
}

@Injectable()
export class MetricsExportService {
  constructor(
    private readonly database: DatabaseService,
    private readonly metrics: MetricsExportRepository,
    private readonly volumes: PolicyRepository,
  ) {}

  /**
   * The volume's 10-second interval metrics over [from, to) as CSV (RFC 4180, header line
   * first, columns {@link CSV_COLUMNS}).
   * @throws ApiError bad_request when from >= to or the range is longer than 7 days;
   *   not_found when the tenant has no such volume.
   */
  async exportCsv(auth: Principal, volumeId: string, query: MetricsExportQuery): Promise<MetricsCsv> {
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_EXPORT_RANGE_SECONDS * 1000);
    if (from >= to) {
      throw new ApiError(ErrorCode.BadRequest, `from (${from.toISOString()}) must be before to (${to.toISOString()})`);
    }
    if (to.getTime() - from.getTime() > MAX_EXPORT_RANGE_SECONDS * 1000) {
      throw new ApiError(ErrorCode.BadRequest, `the range from ${from.toISOString()} to ${to.toISOString()} is longer than 7 days; export it in parts`);
    }
    const rows = await this.database.withTenant(auth.tenantId, async (db) => {
      if (!(await this.volumes.volumeExists(db, auth.tenantId, volumeId))) {
        throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      }
      return this.metrics.intervals(db, auth.tenantId, volumeId, from, to);
    });
    return { csv: stringify(rows.map(csvRecord), { header: true, columns: [...CSV_COLUMNS] }), from, to, rows: rows.length };
  }
}
