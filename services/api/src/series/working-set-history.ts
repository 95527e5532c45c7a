import { Controller, Get, Injectable, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiError, DatabaseService, ErrorBodyDto, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../auth/permission.js';
import type { Principal } from '../auth/principal.js';
import { volumeIdSchema } from '../dtos/volume-query.js';
import { MAX_WIDTH } from './series.query.js';

/** Query of GET /v1/volumes/{volumeId}/working-set/history. */
export const workingSetHistoryQuerySchema = z
  .object({
    window: z.enum(['1h', '24h', '7d', 'all']).default('1h').describe('working-set window (docs/analytics.md)'),
    from: z.iso.datetime({ offset: true }).optional().describe('start (inclusive), RFC 3339; default: to minus 7 days'),
    to: z.iso.datetime({ offset: true }).optional().describe('end (exclusive), RFC 3339; default: now'),
    width: z.coerce.number().int().min(10).max(MAX_WIDTH).default(800).describe('points wanted at most'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] });
export type WorkingSetHistoryQuery = z.output<typeof workingSetHistoryQuerySchema>;

export class WorkingSetPointDto {
  @ApiProperty({ description: 'bucket start, RFC 3339' })
  t!: string;
  @ApiProperty({ description: 'largest working set estimated in the bucket, bytes' })
  wss_max_bytes!: number;
  @ApiProperty({ description: 'smallest, bytes' })
  wss_min_bytes!: number;
  @ApiProperty({ description: 'latest estimate in the bucket, bytes (all references)' })
  wss_bytes!: number;
  @ApiProperty({ description: 'latest read working set, bytes' })
  wss_read_bytes!: number;
  @ApiProperty({ description: 'latest write working set, bytes' })
  wss_write_bytes!: number;
}

/** Working set size over time of a volume or a cluster (without the subject's id). */
export class WorkingSetHistoryBaseDto {
  @ApiProperty({ enum: ['1h', '24h', '7d', 'all'] })
  window!: string;
  @ApiProperty({ description: 'RFC 3339' })
  from!: string;
  @ApiProperty({ description: 'RFC 3339' })
  to!: string;
  @ApiProperty({ description: 'width of one point, seconds (whole minutes, epoch-aligned)' })
  bucket_seconds!: number;
  @ApiProperty({ type: [WorkingSetPointDto] })
  points!: WorkingSetPointDto[];
}

export class WorkingSetHistoryDto extends WorkingSetHistoryBaseDto {
  @ApiProperty()
  volume_id!: string;
}

/**
 * Whose history: a volume's (volume_working_set_history, migration 730) or a cluster's
 * (cluster_working_set_history, migration 780), and where the subject is known from.
 */
const SUBJECTS = {
  volume: { history: 'volume_working_set_history', id: 'volume_id', known: 'SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2' },
  cluster: { history: 'cluster_working_set_history', id: 'cluster_id', known: 'SELECT 1 FROM cluster_working_sets WHERE tenant_id = $1 AND cluster_id = $2 LIMIT 1' },
} as const;

@Injectable()
export class WorkingSetHistoryService {
  constructor(private readonly database: DatabaseService) {}

  /**
   * A volume's or cluster's working-set estimates over time (one row per minute, kept by the db
   * trigger on its working-set table), in about `width` epoch-aligned points: min, max and the
   * latest estimate of each.
   * @throws ApiError not_found when the tenant has no such volume or no results for the cluster.
   */
  get(auth: Principal, subject: keyof typeof SUBJECTS, id: string, q: WorkingSetHistoryQuery, now = new Date()): Promise<WorkingSetHistoryBaseDto> {
    const to = q.to ? new Date(q.to) : now;
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 7 * 86400_000);
    const bucketSeconds = Math.max(1, Math.ceil((to.getTime() - from.getTime()) / 1000 / q.width / 60)) * 60;
    const { history, id: idColumn, known } = SUBJECTS[subject];
    return this.database.withTenant(auth.tenantId, async (db) => {
      if ((await db.query(known, [auth.tenantId, id])).rowCount === 0) throw new ApiError(ErrorCode.NotFound, `${subject} ${id} not found`);
      const { rows } = await db.query<WorkingSetPointDto>(
        `SELECT to_char(to_timestamp(floor(extract(epoch FROM at) / $5) * $5) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t,
                max(wss_bytes)::float8 AS wss_max_bytes, min(wss_bytes)::float8 AS wss_min_bytes,
                (array_agg(wss_bytes ORDER BY at DESC))[1]::float8 AS wss_bytes,
                (array_agg(wss_read_bytes ORDER BY at DESC))[1]::float8 AS wss_read_bytes,
                (array_agg(wss_write_bytes ORDER BY at DESC))[1]::float8 AS wss_write_bytes
           FROM ${history}
          WHERE tenant_id = $1 AND ${idColumn} = $2 AND window_name = $3 AND at >= $4 AND at < $6
          GROUP BY 1 ORDER BY 1`,
        [auth.tenantId, id, q.window, from, bucketSeconds, to],
      );
      return { window: q.window, from: from.toISOString(), to: to.toISOString(), bucket_seconds: bucketSeconds, points: rows };
    });
  }
}

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/working-set/history')
export class WorkingSetHistoryController {
  constructor(private readonly history: WorkingSetHistoryService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @ApiOperation({ summary: "A volume's working set size over time, downsampled to the chart's width" })
  @ApiOkResponse({ type: WorkingSetHistoryDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed volumeId, window, from, to or width' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the tenant has no such volume' })
  get(
    @Auth() auth: Principal,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Query({ schema: workingSetHistoryQuerySchema }) query: WorkingSetHistoryQuery,
  ): Promise<WorkingSetHistoryDto> {
    return this.history.get(auth, 'volume', volumeId, query).then((h) => ({ volume_id: volumeId, ...h }));
  }
}
