import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
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
