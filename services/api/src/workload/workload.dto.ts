import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

/** Query of GET /v1/volumes/{volumeId}/workload: the period, [from, to), default the last 24 hours. */
export const workloadQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('start of the period, ISO 8601 (default: `to` minus 24 hours)'),
  to: z.iso.datetime({ offset: true }).optional().describe('end of the period, exclusive, ISO 8601 (default: now)'),
});
export type WorkloadQuery = z.output<typeof workloadQuerySchema>;

/** Query of GET /v1/volumes/{volumeId}/fio-job: the period and whether to pace the job. */
export const fioJobQuerySchema = workloadQuerySchema.extend({
  rate: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true')
    .describe('true (default): pace the job at the measured IOPS (rate_iops); false: run as fast as the device goes'),
});
export type FioJobQuery = z.output<typeof fioJobQuerySchema>;

/** One vscsiStats family: its bucket limits and the merged counts per direction (null: none reported). */
export class WorkloadHistogramDto {
  @ApiProperty({ type: [Number], description: "vscsiStats' bucket upper bounds, inclusive (proto/METRICS.md); the last count is above the last bound" })
  bounds!: number[];

  @ApiProperty({ type: [Number], nullable: true, description: 'bucket counts over every command (one more than bounds)' })
  all!: number[] | null;

  @ApiProperty({ type: [Number], nullable: true, description: 'bucket counts over reads (from the previous read, reads in flight, ...); null for the closest-of-16 family' })
  read!: number[] | null;

  @ApiProperty({ type: [Number], nullable: true, description: 'bucket counts over writes; null for the closest-of-16 family' })
  write!: number[] | null;
}

/** How random the volume's I/O is, from its seek-distance histogram over every command. */
export class RandomnessDto {
  @ApiProperty({ description: 'commands with a previous one (the seek-distance histogram over all commands)' })
  commands!: number;

  @ApiProperty({ description: 'share of commands that start at the sector after the previous one ended (distance 1: sequential)' })
  sequential_share!: number;

  @ApiProperty({ description: 'share of commands within 128 sectors (64 KiB) of where the previous one ended: distance in (-128, 128]' })
  within_128_sectors_share!: number;
}

/** Block alignment of a volume's commands over a period (docs/workload.md "Block alignment"). */
export class AlignmentDto {
  @ApiProperty({ type: WorkloadHistogramDto, description: 'commands by the sector (512 bytes) of its 4 KiB block they start at: bounds 0 to 6, bucket k = k sectors in, 0 = aligned' })
  start_sector!: WorkloadHistogramDto;

  @ApiProperty({ description: 'commands counted' })
  commands!: number;

  @ApiProperty({ description: 'share of commands that do not start on a 4 KiB boundary' })
  misaligned_share!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'share of the bytes read and written in commands that do not start on a 4 KiB boundary; null without bytes' })
  misaligned_bytes_share!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'extra work of the cache tier from misalignment: 4 KiB blocks the commands span as issued over those they would span from a 4 KiB boundary, minus 1 (a misaligned 4 KiB I/O spans two blocks); null without the block counts' })
  extra_block_share!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'bytes into their 4 KiB block where most misaligned commands start (at least half of them), e.g. 3584 for a partition at sector 63; null when no offset dominates' })
  dominant_offset_bytes!: number | null;

  @ApiProperty({ description: 'whether the volume would gain from realignment: one offset dominates and the extra block share reaches the advice threshold (docs/workload.md "Block alignment"); moving the partition by that offset removes the extra work' })
  realignment_advised!: boolean;
}

/**
 * The vscsiStats workload of a volume over a period (docs/workload.md): seek distance between
 * successive commands and from the closest of the previous 16 (512-byte sectors, signed),
 * outstanding I/Os at issue, interarrival time (µs), merged from the rollups.
 */
export class WorkloadDto {
  @ApiProperty() volume_id!: string;
  @ApiProperty({ format: 'date-time' }) from!: string;
  @ApiProperty({ format: 'date-time' }) to!: string;
  @ApiProperty({ description: 'rollup resolution read (10s, 1m, 1h, 1d)' }) resolution!: string;
  @ApiProperty({ description: 'rollup windows of the period that had data' }) windows!: number;
  @ApiProperty({ type: WorkloadHistogramDto, description: 'distance in sectors from the end of the previous command (read: previous read; write: previous write)' })
  seek_distance!: WorkloadHistogramDto;
  @ApiProperty({ type: WorkloadHistogramDto, description: 'distance in sectors from the closest of the previous 16 commands (all only)' })
  seek_distance_closest!: WorkloadHistogramDto;
  @ApiProperty({ type: WorkloadHistogramDto, description: 'I/Os in flight when a new one was issued, itself included' })
  outstanding!: WorkloadHistogramDto;
  @ApiProperty({ type: WorkloadHistogramDto, description: 'microseconds since the previous command was issued' })
  interarrival_us!: WorkloadHistogramDto;
  @ApiProperty({ type: WorkloadHistogramDto, description: "front-end latency in vscsiStats' latency buckets, microseconds: only for volumes imported from vscsiStats output (the agent's own latency is in the volume's series)" })
  latency_us!: WorkloadHistogramDto;
  @ApiProperty({ type: RandomnessDto, nullable: true, description: 'null without seek distances in the period' })
  randomness!: RandomnessDto | null;
  @ApiProperty({ type: AlignmentDto, nullable: true, description: 'null without alignment counts in the period' })
  alignment!: AlignmentDto | null;
}
