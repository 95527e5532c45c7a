import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { OverviewDto } from './overview.dto.js';
import { type OverviewQuery, overviewQuerySchema } from './overview.query.js';
import { OverviewService } from './overview.service.js';

@ApiTags('fleet')
@Controller('v1/fleet/overview')
export class OverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get()
  @Authenticated({ permission: Permission.FleetRead })
  @Endpoint({
    summary: 'The fleet over a period: I/Os and bytes offloaded from the datastores, writes accelerated, top volumes, hosts and their volumes',
    ok: OverviewDto,
    errors: { 400: 'malformed from, to or top' },
  })
  get(@Auth() auth: Principal, @Query({ schema: overviewQuerySchema }) query: OverviewQuery): Promise<OverviewDto> {
    return this.overview.get(auth, query);
  }
}
