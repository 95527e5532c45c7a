import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import { volumeIdSchema, type VolumeListQuery, volumeListQuerySchema } from './volume-query.js';
import { VolumeDetailDto, VolumeListDto } from './volume.dto.js';
import type { Principal } from '../identity/principal.js';
import { VolumeService } from './volume.service.js';

@ApiTags('volumes')
@Controller('v1/volumes')
export class VolumeController {
  constructor(private readonly volumes: VolumeService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @ApiOperation({ summary: 'Volumes of the tenant, one page at a time' })
  @ApiOkResponse({ type: VolumeListDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed limit, sort or cursor' })
  list(@Auth() auth: Principal, @Query({ schema: volumeListQuerySchema }) query: VolumeListQuery): Promise<VolumeListDto> {
    return this.volumes.list(auth, query);
  }

  @Get(':volumeId')
  @Authenticated({ permission: Permission.VolumeRead })
  @ApiOperation({ summary: 'A volume: I/O, cache, block sizes, working set, miss ratio curve, recommendation' })
  @ApiOkResponse({ type: VolumeDetailDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed volumeId' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the tenant has no such volume' })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string): Promise<VolumeDetailDto> {
    return this.volumes.get(auth, volumeId);
  }
}
