import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import type { Response } from 'express';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { CSV_COLUMNS, type MetricsExportQuery, metricsExportQuerySchema } from './metrics-export.dto.js';
import { MetricsExportService } from './metrics-export.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/metrics')
export class MetricsExportController {
  constructor(private readonly metrics: MetricsExportService) {}

  @Get('export')
  @Authenticated({ permission: Permission.VolumeRead })
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: "The volume's 10-second interval metrics over a time range (at most 7 days) as CSV" })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: `CSV with a header line; columns: ${CSV_COLUMNS.join(', ')}`,
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed volumeId, from or to; from not before to; range over 7 days' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the tenant has no such volume' })
  async export(
    @Auth() auth: Principal,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Query({ schema: metricsExportQuerySchema }) query: MetricsExportQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const exported = await this.metrics.exportCsv(auth, volumeId, query);
    const stamp = (date: Date) => date.toISOString().replace(/[:.]/g, '-');
    response.type('text/csv; charset=utf-8');
    response.setHeader('Content-Disposition', `attachment; filename="${volumeId}-${stamp(exported.from)}-${stamp(exported.to)}.csv"`);
    return exported.csv;
  }
}
