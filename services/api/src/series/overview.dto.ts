import { ApiProperty } from '@nestjs/swagger';
import { SeriesLatencyDto } from './series.dto.js';

/** The period's hero numbers (tenant scope). */
export class OverviewTotalsDto {
  @ApiProperty({ description: 'front-end I/Os (reads + writes)' })
  ios!: number;
  @ApiProperty({ description: 'front-end bytes (read + written)' })
  bytes!: number;
  @ApiProperty({ description: 'reads served by the tier instead of the datastore: read I/Os x read hit ratio (4 KiB blocks)' })
  ios_offloaded!: number;
  @ApiProperty({ description: 'bytes read from the tier instead of the datastore: read hits x 4 KiB' })
  bytes_offloaded!: number;
  @ApiProperty({ description: 'write I/Os of volumes whose applied policy is write-back (acknowledged from the tier)' })
  writes_accelerated!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'read hit ratio over the period' })
  read_hit_ratio!: number | null;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true, description: 'latency of every front-end I/O over the period' })
  latency!: SeriesLatencyDto | null;
}

/** One volume over the period. */
export class OverviewVolumeDto {
  @ApiProperty()
  volume_id!: string;
  @ApiProperty({ type: String, nullable: true })
  display_name!: string | null;
  @ApiProperty()
  host_id!: string;
  @ApiProperty({ description: 'front-end I/Os over the period' })
  ios!: number;
  @ApiProperty({ description: 'mean IOPS over the reported time' })
  iops!: number;
  @ApiProperty({ description: 'bytes per second over the reported time' })
  bytes_per_s!: number;
  @ApiProperty({ type: SeriesLatencyDto, nullable: true })
  latency!: SeriesLatencyDto | null;
}

/** A host and its volumes (the performance map). */
export class OverviewHostDto {
  @ApiProperty()
  host_id!: string;
  @ApiProperty({ type: String, nullable: true })
  display_name!: string | null;
  @ApiProperty({ description: 'front-end I/Os of its volumes over the period' })
  ios!: number;
  @ApiProperty({ type: [OverviewVolumeDto] })
  volumes!: OverviewVolumeDto[];
}

export class OverviewDto {
  @ApiProperty({ description: 'RFC 3339' })
  from!: string;
  @ApiProperty({ description: 'RFC 3339' })
  to!: string;
  @ApiProperty({ enum: ['10s', '1m', '1h', '1d'], description: 'rollup resolution read' })
  resolution!: string;
  @ApiProperty({ type: OverviewTotalsDto })
  totals!: OverviewTotalsDto;
  @ApiProperty({ type: [OverviewVolumeDto], description: 'by 99th percentile latency, highest first' })
  top_by_latency!: OverviewVolumeDto[];
  @ApiProperty({ type: [OverviewVolumeDto], description: 'by IOPS, highest first' })
  top_by_iops!: OverviewVolumeDto[];
  @ApiProperty({ type: [OverviewHostDto], description: 'hosts and their volumes (idle ones too), by I/Os in the period' })
  hosts!: OverviewHostDto[];
}
