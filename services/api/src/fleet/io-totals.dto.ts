import { ApiProperty } from '@nestjs/swagger';

/** Front-end I/O and tier counters summed over some span (shared by the fleet summary and the rollups). */
export class IoTotalsDto {
  @ApiProperty({ description: 'front-end read I/Os' })
  read_ops!: number;
  @ApiProperty({ description: 'front-end write I/Os' })
  write_ops!: number;
  @ApiProperty({ description: 'front-end bytes read' })
  read_bytes!: number;
  @ApiProperty({ description: 'front-end bytes written' })
  write_bytes!: number;
  @ApiProperty({ description: 'tier hits, 4 KiB blocks, all directions' })
  cache_hits!: number;
  @ApiProperty({ description: 'tier misses, 4 KiB blocks, all directions' })
  cache_misses!: number;
}
