import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { DEFAULT_EVICTION, EVICTIONS, MEDIA, PSEUDONYMOUS_ID_PATTERN } from '@tierwise/common';
import { PolicyDto } from '../policies/policy.dto.js';
import { mapPrediction, mapRecommendationFields, PredictionDto, RecommendationDto, type RecommendationRow } from '../volumes/volume.dto.js';
import { timestampSchema } from '../http/timestamp.js';

/** Where a recommendation stands: open until someone applies or dismisses it (that version of it). */
export const RECOMMENDATION_STATUSES = ['open', 'applied', 'dismissed'] as const;
export type RecommendationStatus = (typeof RECOMMENDATION_STATUSES)[number];

/** A recommendation with its volume's host and the decision on it (RecommendationRepository). */
export interface RecommendationListRow extends RecommendationRow {
  volume_id: string;
  host_id: string;
  display_name: string | null;
  status: RecommendationStatus;
  decided_at: Date | null;
  reason: string | null;
}

/** Query of GET /v1/recommendations: newest first. */
export const recommendationListQuerySchema = z.object({
  ...pageQueryShape,
  status: z.enum(RECOMMENDATION_STATUSES).optional().describe('only recommendations in this status'),
  media: z.enum(MEDIA).optional().describe('only recommendations of this tier media'),
  host_id: z.string().regex(PSEUDONYMOUS_ID_PATTERN, 'host_id must be 8-64 lowercase hex characters').optional().describe('only volumes of this host'),
});
export type RecommendationListQuery = z.output<typeof recommendationListQuerySchema>;

/** A row of recommendation_history (RecommendationRepository.history): a past prediction and its measurement. */
export interface RecommendationHistoryRow extends Omit<RecommendationRow, 'inputs'> {
  /** recommendation_history.id (bigserial, as text). */
  id: string;
  volume_id: string;
}

/** Query of GET /v1/volumes/{volumeId}/recommendations/history: newest first. */
export const recommendationHistoryQuerySchema = z.object(pageQueryShape);
export type RecommendationHistoryQuery = z.output<typeof recommendationHistoryQuerySchema>;

/** Body of POST /v1/recommendations/{volumeId}/apply: what the recommendation does not say. */
export const applyRecommendationSchema = z.object({
  eviction: z
    .enum(EVICTIONS)
    .optional()
    .describe(`eviction policy of the tier (default: the recommendation's eviction, or ${DEFAULT_EVICTION}, the engine's default, for an older recommendation without one)`),
  write_back_copies: z.number().int().min(0).max(8).default(1).describe('n of WB+n when the recommendation is write-back (default 1); ignored for write-through'),
  created_at: timestampSchema.optional().describe('the created_at of the recommendation you saw: refused with 409 if it changed since'),
}).prefault({}); // no body at all: the recommendation as it stands
export type ApplyRecommendation = z.output<typeof applyRecommendationSchema>;

/** Body of POST /v1/recommendations/{volumeId}/dismiss. */
export const dismissRecommendationSchema = z.object({
  reason: z.string().trim().max(500).optional().describe('why, for the audit log and the portal').meta({ example: 'volume is being retired' }),
});
export type DismissRecommendation = z.output<typeof dismissRecommendationSchema>;

export class RecommendationItemDto extends RecommendationDto {
  @ApiProperty() volume_id!: string;
  @ApiProperty() host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'volume name, only when the host opted in (--send-names)' }) display_name!: string | null;
  @ApiProperty({ enum: RECOMMENDATION_STATUSES }) status!: RecommendationStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when it was applied or dismissed' }) decided_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the reason given when dismissed' }) reason!: string | null;
}

export class RecommendationPageDto extends PageDto(RecommendationItemDto) {}

/** A past prediction of a volume, and the hit ratio measured while it ran (the closed loop). */
export class RecommendationHistoryItemDto extends PredictionDto {
  @ApiProperty({ description: 'id of the history entry' }) id!: string;
  @ApiProperty() volume_id!: string;
  @ApiProperty() explanation!: string;
}

export class RecommendationHistoryPageDto extends PageDto(RecommendationHistoryItemDto) {}

export class AppliedRecommendationDto {
  @ApiProperty({ type: RecommendationItemDto }) recommendation!: RecommendationItemDto;
  @ApiProperty({ type: PolicyDto, description: "the volume's new desired policy" }) policy!: PolicyDto;
}

export function mapRecommendation(row: RecommendationListRow): RecommendationItemDto {
  return {
    volume_id: row.volume_id,
    host_id: row.host_id,
    display_name: row.display_name,
    ...mapRecommendationFields(row),
    status: row.status,
    decided_at: row.decided_at?.toISOString() ?? null,
    reason: row.reason,
  };
}

export function mapRecommendationHistory(row: RecommendationHistoryRow): RecommendationHistoryItemDto {
  return { id: row.id, volume_id: row.volume_id, ...mapPrediction(row), explanation: row.explanation };
}
