import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { hostIdSchema, type HostListQuery, hostListQuerySchema, HostPageDto, HostWorkingSetDto } from './host.dto.js';
import { HostService } from './host.service.js';

@ApiTags('hosts')
@Controller('v1/hosts')
export class HostController {
  constructor(private readonly hosts: HostService) {}

  @Get()
  @Authenticated({ permission: Permission.HostRead })
  @Endpoint({ summary: 'Hosts of the tenant with their volume counts, one page at a time', ok: HostPageDto, errors: { 400: 'malformed seen_since, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: hostListQuerySchema }) query: HostListQuery): Promise<HostPageDto> {
    return this.hosts.list(auth, query);
  }

  @Get(':hostId/working-set')
  @Authenticated({ permission: Permission.HostRead })
  @Endpoint({ summary: "The tier a host's volumes share: their merged stream's working set and every eviction policy's miss ratio curve per window, and the tier recommended from it", ok: HostWorkingSetDto, errors: { 400: 'malformed hostId', 404: "no such host in the caller's tenant" } })
  workingSet(@Auth() auth: Principal, @Param('hostId', { schema: hostIdSchema }) hostId: string): Promise<HostWorkingSetDto> {
    return this.hosts.workingSet(auth, hostId);
  }
}
