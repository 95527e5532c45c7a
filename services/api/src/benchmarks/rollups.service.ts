import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import type { RollupSeriesDto, RollupsDto } from './rollups.dto.js';
import { DEFAULT_WINDOWS, MAX_POINTS, ROLLUP_RESOLUTIONS, type RollupQuery } from './rollups.query.js';
import { RollupsRepository } from './rollups.repository.js';

@Injectable()
export class RollupsService {
  constructor(
    private readonly database: DatabaseService,
    private readonly rollups: RollupsRepository,
  ) {}

  /** The caller's rollup time series of one scope and resolution, grouped by scope id. */
  get(auth: Principal, query: RollupQuery): Promise<RollupsDto> {
    const windowSeconds = ROLLUP_RESOLUTIONS[query.resolution];
    const to = query.to ? new Date(query.to) : new Date();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_WINDOWS * windowSeconds * 1000);
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.rollups.points(db, auth.tenantId, {
        scope: query.scope,
        scopeId: query.scope_id ?? null,
        resolution: query.resolution,
        from,
        to,
        limit: MAX_POINTS + 1,
      });
      const series: RollupSeriesDto[] = [];
      for (const { scope_id, window_start, ...point } of rows.slice(0, MAX_POINTS)) {
        if (series.at(-1)?.scope_id !== scope_id) series.push({ scope_id, points: [] });
        series.at(-1)!.points.push({ window_start: window_start.toISOString(), ...point });
      }
      return {
        scope: query.scope,
        resolution: query.resolution,
        window_seconds: windowSeconds,
        from: from.toISOString(),
        to: to.toISOString(),
        truncated: rows.length > MAX_POINTS,
        series,
      };
    });
  }
}
