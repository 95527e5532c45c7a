import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../auth/permission.js';
import { FleetSummaryDto } from '../dtos/fleet.dto.js';
import type { Principal } from '../auth/principal.js';
import { FleetService } from '../services/fleet.service.js';

@ApiTags('fleet')
@Controller('v1/fleet')
export class FleetController {
  constructor(private readonly fleet: FleetService) {}

  @Get('summary')
  @Authenticated({ permission: Permission.FleetRead })
  @ApiOperation({ summary: 'Inventory counts and I/O totals of the tenant' })
  @ApiOkResponse({ type: FleetSummaryDto })
  summary(@Auth() auth: Principal): Promise<FleetSummaryDto> {
    return this.fleet.summary(auth);
  }
}
