import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
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
  @Endpoint({ summary: 'Volumes of the tenant, one page at a time', ok: VolumeListDto, errors: { 400: 'malformed limit, sort or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: volumeListQuerySchema }) query: VolumeListQuery): Promise<VolumeListDto> {
    return this.volumes.list(auth, query);
  }

  @Get(':volumeId')
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: 'A volume: I/O, cache, block sizes, working set, miss ratio curve, recommendation', ok: VolumeDetailDto, errors: { 400: 'malformed volumeId', 404: 'the tenant has no such volume' } })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string): Promise<VolumeDetailDto> {
    return this.volumes.get(auth, volumeId);
  }
}
