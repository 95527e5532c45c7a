import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { SeriesDto } from './series.dto.js';
import { type SeriesQuery, seriesQuerySchema } from './series.query.js';
import { SeriesService } from './series.service.js';

@ApiTags('rollups')
@Controller('v1/series')
export class SeriesController {
  constructor(private readonly series: SeriesService) {}

  @Get()
  @Authenticated({ permission: Permission.FleetRead })
  @Endpoint({
    summary: "A volume's, host's, cluster's or the tenant's time series, downsampled on the server to the chart's width",
    description:
      'Reads the coarsest rollup resolution whose window fits in one point (range / width) and still holds the range, then merges ' +
      'its windows into epoch-aligned points: IOPS and throughput (with the min and max of single windows), bytes by storage type, ' +
      'hit ratios, latency percentiles per direction from added histogram counts, the block-size distribution and latency by block ' +
      'size (heatmap cells), and an optional custom breakdown (direction, ioLength bins).',
    ok: SeriesDto,
    errors: { 400: 'malformed scope, scope_id, from, to, width, resolution, direction or size_bins' },
  })
  get(@Auth() auth: Principal, @Query({ schema: seriesQuerySchema }) query: SeriesQuery): Promise<SeriesDto> {
    return this.series.get(auth, query);
  }
}
