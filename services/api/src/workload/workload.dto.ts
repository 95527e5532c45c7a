import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

/** Query of GET /v1/volumes/{volumeId}/workload: the period, [from, to), default the last 24 hours. */
export const workloadQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional().describe('start of the period, ISO 8601 (default: `to` minus 24 hours)'),
  to: z.iso.datetime({ offset: true }).optional().describe('end of the period, exclusive, ISO 8601 (default: now)'),
});
export type WorkloadQuery = z.output<typeof workloadQuerySchema>;

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
  @ApiProperty({ type: RandomnessDto, nullable: true, description: 'null without seek distances in the period' })
  randomness!: RandomnessDto | null;
}
