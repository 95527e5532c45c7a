import { ApiProperty } from '@nestjs/swagger';
import { mapPolicyMrc, mapTierPrediction, mapWorkingSet, PolicyMrcDto, type PolicyMrcRow, TierPredictionDto, type TierPredictionRow, WorkingSetDto, type WorkingSetRow } from '../volumes/volume.dto.js';

/** What shares a tier (the stream jobs' SharedTier): a cluster's hosts, or a host's volumes. */
export type SharedTierKind = 'cluster' | 'host';

/** One window of a shared tier's working set and MRC (SharedTierRepository.windows). */
export interface SharedTierWindowRow extends WorkingSetRow {
  window_name: string;
  volumes: number;
  mrc: PolicyMrcRow | null;
}

/** A cluster_recommendations or host_recommendations row (SharedTierRepository.recommendation). */
export interface SharedTierRecommendationRow extends TierPredictionRow {
  volumes: number;
  explanation: string;
}

export class SharedTierWindowDto {
  @ApiProperty({ enum: ['1h', '24h', '7d', 'all'], description: 'sliding window, or everything since the stream started' }) window!: string;
  @ApiProperty({ description: "volumes whose sampled references were merged into this window's stream" }) volumes!: number;
  @ApiProperty({ type: WorkingSetDto }) working_set!: WorkingSetDto;
  @ApiProperty({ type: PolicyMrcDto, nullable: true }) mrc!: PolicyMrcDto | null;
}

/** The tier recommended for a cluster or a host from the merged stream of its volumes (the stream jobs). */
export class SharedTierRecommendationDto extends TierPredictionDto {
  @ApiProperty({ description: 'volumes whose merged stream the recommendation was computed from' }) volumes!: number;
  @ApiProperty() explanation!: string;
}

export function mapSharedTierWindow(row: SharedTierWindowRow): SharedTierWindowDto {
  return { window: row.window_name, volumes: row.volumes, working_set: mapWorkingSet(row), mrc: row.mrc && mapPolicyMrc(row.mrc) };
}

export function mapSharedTierRecommendation(row: SharedTierRecommendationRow): SharedTierRecommendationDto {
  return { ...mapTierPrediction(row), volumes: row.volumes, explanation: row.explanation };
}
