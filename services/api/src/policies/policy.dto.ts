import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { CACHE_MODES, type CacheMode, DEFAULT_EVICTION, type DesiredPolicy, type Eviction, EVICTIONS, type Media, MEDIA, TIER_BLOCK_BYTES } from '@tierwise/common';
import type { ActorKind } from '../identity/principal.js';

/** A volume_policies row. */
export interface PolicyRow extends DesiredPolicy {
  source: 'manual' | 'recommendation';
  updated_at: Date;
  updated_by_kind: ActorKind;
  updated_by_id: string;
  applied_version: number | null;
  applied_at: Date | null;
  applied_error: string | null;
}

const policyShape = {
  tier_bytes: z.number().int().min(TIER_BLOCK_BYTES).max(Number.MAX_SAFE_INTEGER).multipleOf(TIER_BLOCK_BYTES).describe('tier size, bytes, a multiple of 4096').meta({ example: 68719476736 }),
  media: z.enum(MEDIA).describe('tier media').meta({ example: 'nvme' }),
  eviction: z.enum(EVICTIONS).default(DEFAULT_EVICTION).describe(`eviction policy of the tier (default ${DEFAULT_EVICTION}, the engine's)`),
};

/**
 * Body of PUT /v1/volumes/{volumeId}/policy: write-through, or write-back with its n peers
 * (WB+n), one schema per mode so that the OpenAPI document states which fields go together.
 */
export const desiredPolicySchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('write-through').describe('write-through (WT): writes reach the datastore before they are acknowledged').meta({ example: 'write-through' }), ...policyShape }),
  z.object({
    mode: z.literal('write-back').describe('write-back (WB+n): writes are acknowledged once in the tier and on n peers, destaged later'),
    write_back_copies: z.number().int().min(0).max(8).describe('n of WB+n: peers a write lands on before it is acknowledged').meta({ example: 1 }),
    ...policyShape,
  }),
]);
export type DesiredPolicyBody = z.output<typeof desiredPolicySchema>;

export class PolicyActorDto {
  @ApiProperty({ enum: ['user', 'api_key'] }) kind!: ActorKind;
  @ApiProperty({ format: 'uuid' }) id!: string;
}

export class PolicyDto {
  @ApiProperty() volume_id!: string;
  @ApiProperty({ description: 'desired version; every change adds one' }) version!: number;
  @ApiProperty({ enum: CACHE_MODES }) mode!: CacheMode;
  @ApiProperty({ type: Number, nullable: true, description: 'n of WB+n; null for write-through' }) write_back_copies!: number | null;
  @ApiProperty({ description: 'tier size, bytes' }) tier_bytes!: number;
  @ApiProperty({ enum: MEDIA }) media!: Media;
  @ApiProperty({ enum: EVICTIONS }) eviction!: Eviction;
  @ApiProperty({ enum: ['manual', 'recommendation'], description: 'set by hand or by applying a recommendation' }) source!: 'manual' | 'recommendation';
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: PolicyActorDto }) updated_by!: PolicyActorDto;
  @ApiProperty({ type: Number, nullable: true, description: 'the version the agent reported applied (policy pull, docs/policies.md); null before it did' }) applied_version!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the agent applied applied_version (its clock, at most the time of its report)' }) applied_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'what of applied_version the agent could not apply (e.g. a tier size larger than its tier device); null when it applied all of it' }) applied_error!: string | null;
  @ApiProperty({ description: 'the agent runs the desired version in full (applied_version = version, no applied_error)' }) in_sync!: boolean;
}

export function mapPolicy(row: PolicyRow): PolicyDto {
  return {
    volume_id: row.volume_id,
    version: row.version,
    mode: row.mode,
    write_back_copies: row.write_back_copies,
    tier_bytes: row.tier_bytes,
    media: row.media,
    eviction: row.eviction,
    source: row.source,
    updated_at: row.updated_at.toISOString(),
    updated_by: { kind: row.updated_by_kind, id: row.updated_by_id },
    applied_version: row.applied_version,
    applied_at: row.applied_at?.toISOString() ?? null,
    applied_error: row.applied_error,
    in_sync: row.applied_version === row.version && row.applied_error === null,
  };
}

/** What the audit log keeps of a policy. */
export function policySummary(policy: PolicyDto | null): object | null {
  return policy && { version: policy.version, mode: policy.mode, write_back_copies: policy.write_back_copies, tier_bytes: policy.tier_bytes, media: policy.media, eviction: policy.eviction, source: policy.source };
}
