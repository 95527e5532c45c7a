import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { SharedTierRecommendationDto, SharedTierWindowDto } from '../shared-tiers/shared-tier.dto.js';
import { WorkingSetHistoryBaseDto } from '../series/working-set-history.dto.js';
import { pseudonymousIdSchema } from '@tierwise/common';

/** What a cluster's members (volumes.cluster_id) add up to (ClusterRepository, CLUSTER_MEMBERS). */
export interface ClusterMembersRow {
  hosts: number;
  capacity_bytes: number;
  /** cluster_recommendations.tier_bytes: the shared tier recommended from the merged stream. */
  recommended_tier_bytes: number | null;
  volumes_recommended_tier_bytes: number | null;
}

/** A cluster with its volume count and working set over everything seen (ClusterRepository). */
export interface ClusterRow extends ClusterMembersRow {
  cluster_id: string;
  volumes: number;
  wss_bytes: number;
  updated_at: Date;
}

/** Query of GET /v1/clusters: in cluster id order. */
export const clusterListQuerySchema = z.object({ ...pageQueryShape });
export type ClusterListQuery = z.output<typeof clusterListQuerySchema>;

/** Path parameter clusterId: a pseudonymous cluster id (lowercase hex, the agents' tierwise.cluster.id). */
export const clusterIdSchema = pseudonymousIdSchema('clusterId').describe('pseudonymous cluster id');

/** The tier a cluster's hosts share, as its members report it. */
export class ClusterTierDto {
  @ApiProperty({ description: 'hosts with a volume last seen in the cluster (ingest, tierwise.cluster.id)' }) hosts!: number;
  @ApiProperty({ description: 'current tier: the latest tier capacities of its volumes added up, bytes' }) capacity_bytes!: number;
  @ApiProperty({ type: Number, nullable: true, description: "the shared tier recommended from its volumes' merged reference stream (recommendation), bytes; null before one" })
  recommended_tier_bytes!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "its volumes' own recommended tiers added up, bytes: what a tier per volume would take; null when none has a recommendation" })
  volumes_recommended_tier_bytes!: number | null;
}

export class ClusterDto extends ClusterTierDto {
  @ApiProperty({ description: 'pseudonymous cluster id (hex of a keyed hash of the cluster name)' }) cluster_id!: string;
  @ApiProperty({ description: 'volumes whose sampled references were merged into the cluster\'s' }) volumes!: number;
  @ApiProperty({ description: 'working set of the merged stream since it started, bytes' }) wss_bytes!: number;
  @ApiProperty({ format: 'date-time', description: 'when the stream jobs last wrote the cluster\'s results' }) updated_at!: string;
}

export class ClusterPageDto extends PageDto(ClusterDto) {}

export class ClusterWorkingSetDto extends ClusterTierDto {
  @ApiProperty() cluster_id!: string;
  @ApiProperty({ description: 'volumes merged' }) volumes!: number;
  @ApiProperty({ type: [SharedTierWindowDto], description: 'one per window: 1h, 24h, 7d, all' }) windows!: SharedTierWindowDto[];
  @ApiProperty({ type: SharedTierRecommendationDto, nullable: true, description: 'the shared tier recommended for the cluster; null before one' })
  recommendation!: SharedTierRecommendationDto | null;
}

export function mapTier(row: ClusterMembersRow): ClusterTierDto {
  return {
    hosts: row.hosts,
    capacity_bytes: row.capacity_bytes,
    recommended_tier_bytes: row.recommended_tier_bytes,
    volumes_recommended_tier_bytes: row.volumes_recommended_tier_bytes,
  };
}

export function mapCluster(row: ClusterRow): ClusterDto {
  return { cluster_id: row.cluster_id, volumes: row.volumes, wss_bytes: row.wss_bytes, updated_at: row.updated_at.toISOString(), ...mapTier(row) };
}

export class ClusterWorkingSetHistoryDto extends WorkingSetHistoryBaseDto {
  @ApiProperty() cluster_id!: string;
}
