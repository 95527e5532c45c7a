import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import { downsample } from './downsample.js';
import { planSeries } from './resolution.js';
import type { SeriesDto } from './series.dto.js';
import { periodOf, type SeriesQuery } from './series.query.js';
import { SeriesRepository } from './series.repository.js';

@Injectable()
export class SeriesService {
  constructor(
    private readonly database: DatabaseService,
    private readonly series: SeriesRepository,
  ) {}

  /**
   * One scope id's time series over [from, to), downsampled on the server to about `width`
   * points (resolution and bucket from planSeries, merge from downsample).
   */
  get(auth: Principal, query: SeriesQuery, now = new Date()): Promise<SeriesDto> {
    const { from, to } = periodOf(query, now);
    const plan = planSeries(from, to, query.width, now, query.resolution);
    const scopeId = query.scope === 'tenant' ? auth.tenantId : query.scope_id!;
    const selection = query.direction || query.size_bins ? { direction: query.direction, sizeBins: query.size_bins } : null;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.series.windows(db, auth.tenantId, { scope: query.scope, scopeId, resolution: plan.resolution, from, to });
      const { points, sizeBins } = downsample(
        rows,
        { alignedFrom: plan.alignedFrom.getTime() / 1000, bucketSeconds: plan.bucketSeconds, windowSeconds: plan.windowSeconds },
        selection,
        query.sizes,
      );
      return {
        scope: query.scope,
        scope_id: scopeId,
        from: from.toISOString(),
        to: to.toISOString(),
        resolution: plan.resolution,
        window_seconds: plan.windowSeconds,
        bucket_seconds: plan.bucketSeconds,
        windows_read: rows.length,
        size_bins: sizeBins,
        points,
      };
    });
  }
}
