import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import type { Response } from 'express';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { type FioJobQuery, fioJobQuerySchema } from './workload.dto.js';
import { WorkloadService } from './workload.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/fio-job')
export class FioJobController {
  constructor(private readonly workload: WorkloadService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: "An fio job file that replays the volume's measured mix over a period (default the last 24 hours)",
    description:
      'rwmixread from the read share, bssplit per direction from the block-size distribution, percentage_random from the seek distances, ' +
      'iodepth from the outstanding I/Os, the working set as the file size, rate_iops from the measured IOPS unless rate=false (docs/workload.md).',
  })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'the fio job file (INI), with the figures it was made from in comments', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed volumeId, from, to or rate' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the tenant has no such volume' })
  async get(
    @Auth() auth: Principal,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Query({ schema: fioJobQuerySchema }) query: FioJobQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const { job } = await this.workload.fioJob(auth, volumeId, query);
    response.type('text/plain; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="tierwise-${volumeId}.fio"`);
    return job;
  }
}
