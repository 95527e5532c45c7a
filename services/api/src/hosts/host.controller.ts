import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../auth/permission.js';
import type { Principal } from '../auth/principal.js';
import { type HostListQuery, hostListQuerySchema, HostPageDto } from './host.dto.js';
import { HostService } from './host.service.js';

@ApiTags('hosts')
@Controller('v1/hosts')
export class HostController {
  constructor(private readonly hosts: HostService) {}

  @Get()
  @Authenticated({ permission: Permission.HostRead })
  @ApiOperation({ summary: 'Hosts of the tenant with their volume counts, one page at a time' })
  @ApiOkResponse({ type: HostPageDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed seen_since, limit or cursor' })
  list(@Auth() auth: Principal, @Query({ schema: hostListQuerySchema }) query: HostListQuery): Promise<HostPageDto> {
    return this.hosts.list(auth, query);
  }
}
