import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { RollupsDto } from './rollups.dto.js';
import { type RollupQuery, rollupQuerySchema } from './rollups.query.js';
import { RollupsService } from './rollups.service.js';

@ApiTags('rollups')
@Controller('v1/rollups')
export class RollupsController {
  constructor(private readonly rollups: RollupsService) {}

  @Get()
  @Authenticated({ permission: Permission.FleetRead })
  @Endpoint({
    summary: 'I/O, cache and latency time series per volume, host, cluster or tenant at 10 s, 1 min, 1 h or 1 d',
    description: 'Latency percentiles come from the merged histograms of each window. Retention: 10 s 2 days, 1 min 14 days, 1 h 180 days, 1 d 3 years.',
    ok: RollupsDto,
    errors: { 400: 'malformed scope, scope_id, resolution, from or to' },
  })
  get(@Auth() auth: Principal, @Query({ schema: rollupQuerySchema }) query: RollupQuery): Promise<RollupsDto> {
    return this.rollups.get(auth, query);
  }
}
