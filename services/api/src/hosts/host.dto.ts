import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { HOST_ID_PATTERN } from '@tierwise/common';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { SharedTierRecommendationDto, SharedTierWindowDto } from '../shared-tiers/shared-tier.dto.js';
import { timestampSchema } from '../http/timestamp.js';

/** A host with its volume count (HostRepository). */
export interface HostRow {
  host_id: string;
  display_name: string | null;
  first_seen: Date;
  last_seen: Date;
  volumes: number;
}

/** Pseudonymous host id: the agent's keyed hash of its host name (16 lower-case hex characters; never the name). */
export const hostIdSchema = z.string().regex(HOST_ID_PATTERN, 'must be 16 lower-case hex characters (the keyed hash of the host name)');

/** What the volumes last seen on a host add up to (HostRepository.tier); null when the host is unknown. */
export interface HostTierRow {
  display_name: string | null;
  volumes: number;
  capacity_bytes: number;
  volumes_recommended_tier_bytes: number | null;
}

/** Query of GET /v1/hosts: in host id order. */
export const hostListQuerySchema = z.object({
  ...pageQueryShape,
  seen_since: timestampSchema.optional().describe('only hosts that sent data at or after this time (RFC 3339)'),
});
export type HostListQuery = z.output<typeof hostListQuerySchema>;

export class HostDto {
  @ApiProperty({ description: 'pseudonymous host id (hex)' }) host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'host name, only when the host opted in' }) display_name!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when ingest first received data of the host' }) first_seen!: string;
  @ApiProperty({ format: 'date-time', description: 'when ingest last received data of the host' }) last_seen!: string;
  @ApiProperty({ description: 'volumes last seen on the host' }) volumes!: number;
}

export class HostPageDto extends PageDto(HostDto) {}

export function mapHost(row: HostRow): HostDto {
  return {
    host_id: row.host_id,
    display_name: row.display_name,
    first_seen: row.first_seen.toISOString(),
    last_seen: row.last_seen.toISOString(),
    volumes: row.volumes,
  };
}

/** GET /v1/hosts/{hostId}/working-set: the tier a host's volumes share, from their merged stream. */
export class HostWorkingSetDto {
  @ApiProperty({ description: 'pseudonymous host id (hex)' }) host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'host name, only when the host opted in' }) display_name!: string | null;
  @ApiProperty({ description: 'volumes last seen on the host' }) volumes!: number;
  @ApiProperty({ description: 'current tier: the latest tier capacities of its volumes added up, bytes' }) capacity_bytes!: number;
  @ApiProperty({ type: Number, nullable: true, description: "its volumes' own recommended tiers added up, bytes: what a tier per volume would take; null when none has a recommendation" })
  volumes_recommended_tier_bytes!: number | null;
  @ApiProperty({ type: [SharedTierWindowDto], description: "one per window (1h, 24h, 7d, all) of the volumes' merged stream; empty before the stream jobs' first result" })
  windows!: SharedTierWindowDto[];
  @ApiProperty({ type: SharedTierRecommendationDto, nullable: true, description: "the host's tier recommended from its volumes' merged stream; null before one" })
  recommendation!: SharedTierRecommendationDto | null;
}
