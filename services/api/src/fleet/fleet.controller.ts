import { Endpoint } from '@tierwise/common';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import { FleetSummaryDto } from './fleet.dto.js';
import type { Principal } from '../identity/principal.js';
import { FleetService } from './fleet.service.js';

@ApiTags('fleet')
@Controller('v1/fleet')
export class FleetController {
  constructor(private readonly fleet: FleetService) {}

  @Get('summary')
  @Authenticated({ permission: Permission.FleetRead })
  @Endpoint({ summary: 'Inventory counts and I/O totals of the tenant', ok: FleetSummaryDto })
  summary(@Auth() auth: Principal): Promise<FleetSummaryDto> {
    return this.fleet.summary(auth);
  }
}
