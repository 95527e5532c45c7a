import { ApiProperty } from '@nestjs/swagger';
import { IoTotalsDto } from './io-totals.dto.js';

/** Totals over every volume of the tenant, over everything received. */
export class FleetSummaryDto extends IoTotalsDto {
  @ApiProperty({ description: 'volumes in the inventory' })
  volumes!: number;
  @ApiProperty({ description: 'hosts in the inventory' })
  hosts!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'cache_hits / (cache_hits + cache_misses); null without lookups' })
  hit_ratio!: number | null;
  @ApiProperty({ description: "sum of the volumes' working set sizes, bytes (window 'all')" })
  wss_bytes!: number;
  @ApiProperty({ description: "volumes with a working set estimate (window 'all')" })
  working_set_volumes!: number;
  @ApiProperty({ description: "SHARDS-sampled block references behind those estimates (window 'all')" })
  sampled_references!: number;
  @ApiProperty({ description: "volumes with a miss ratio curve of at least one point (window 'all')" })
  mrc_volumes!: number;
}

/** The row of FleetRepository.summary: already the DTO's shape (bigint sums cast to float8). */
export type FleetSummaryRow = FleetSummaryDto;

export function mapFleetSummary(row: FleetSummaryRow): FleetSummaryDto {
  return {
    volumes: row.volumes,
    hosts: row.hosts,
    read_ops: row.read_ops,
    write_ops: row.write_ops,
    read_bytes: row.read_bytes,
    write_bytes: row.write_bytes,
    cache_hits: row.cache_hits,
    cache_misses: row.cache_misses,
    hit_ratio: row.hit_ratio,
    wss_bytes: row.wss_bytes,
    working_set_volumes: row.working_set_volumes,
    sampled_references: row.sampled_references,
    mrc_volumes: row.mrc_volumes,
  };
}
