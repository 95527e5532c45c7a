import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { type WorkingSetHistoryQuery, WorkingSetHistoryDto, workingSetHistoryQuerySchema } from './working-set-history.dto.js';
import { WorkingSetHistoryService } from './working-set-history.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/working-set/history')
export class WorkingSetHistoryController {
  constructor(private readonly history: WorkingSetHistoryService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: "A volume's working set size over time, downsampled to the chart's width", ok: WorkingSetHistoryDto, errors: { 400: 'malformed volumeId, window, from, to or width', 404: 'the tenant has no such volume' } })
  get(
    @Auth() auth: Principal,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Query({ schema: workingSetHistoryQuerySchema }) query: WorkingSetHistoryQuery,
  ): Promise<WorkingSetHistoryDto> {
    return this.history.get(auth, 'volume', volumeId, query).then((h) => ({ volume_id: volumeId, ...h }));
  }
}
