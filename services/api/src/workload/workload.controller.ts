import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { WorkloadDto, type WorkloadQuery, workloadQuerySchema } from './workload.dto.js';
import { WorkloadService } from './workload.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/workload')
export class WorkloadController {
  constructor(private readonly workload: WorkloadService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({
    summary: "A volume's vscsiStats workload histograms over a period: seek distance, outstanding I/Os, interarrival time, and how random its I/O is",
    description: 'Merged from the rollups (bucket counts added) at the coarsest resolution that gives 24 windows of the period; the bounds are vscsiStats\' own (proto/METRICS.md).',
    ok: WorkloadDto,
    errors: { 400: 'malformed volumeId, from or to', 404: 'the tenant has no such volume' },
  })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string, @Query({ schema: workloadQuerySchema }) query: WorkloadQuery): Promise<WorkloadDto> {
    return this.workload.get(auth, volumeId, query);
  }
}
