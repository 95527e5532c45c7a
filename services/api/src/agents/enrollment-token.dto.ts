import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { CreatedByDto } from '../api-keys/api-key.dto.js';
import type { ActorKind } from '../identity/principal.js';
import { displayNameSchema } from '@tierwise/common';
import { PageDto, pageQueryShape } from '../http/pagination.js';

/** Lifetime of an enrollment token when the request names none, seconds (24 h). */
export const DEFAULT_ENROLLMENT_TOKEN_SECONDS = 86_400;
/** Longest lifetime an enrollment token may be given, seconds (30 days). */
export const MAX_ENROLLMENT_TOKEN_SECONDS = 30 * 86_400;

/** An enrollment_tokens row, without its digest. */
export interface EnrollmentTokenRow {
  id: string;
  name: string;
  token_prefix: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  agent_id: string | null;
  created_by_kind: ActorKind;
  created_by_id: string;
}

/** Body of POST /v1/enrollment-tokens. */
export const createEnrollmentTokenSchema = z.object({
  name: displayNameSchema
    .default('enrollment token')
    .describe('what the token is for, e.g. "rack 12"')
    .meta({ example: 'rack 12' }),
  expires_in_seconds: z
    .number()
    .int()
    .min(60)
    .max(MAX_ENROLLMENT_TOKEN_SECONDS)
    .default(DEFAULT_ENROLLMENT_TOKEN_SECONDS)
    .describe('lifetime in seconds, 60 s to 30 days (default 86400, 24 h)')
    .meta({ example: 86_400 }),
});
export type CreateEnrollmentToken = z.output<typeof createEnrollmentTokenSchema>;

/** Query of GET /v1/enrollment-tokens: newest first. */
export const enrollmentTokenListQuerySchema = z.object({
  ...pageQueryShape,
  status: z.enum(['usable', 'used', 'expired', 'all']).default('all').describe('usable (neither used nor expired), used, expired or all (the default)'),
});
export type EnrollmentTokenListQuery = z.output<typeof enrollmentTokenListQuerySchema>;

/** Path parameter enrollmentTokenId. */
export const enrollmentTokenIdSchema = z.uuid({ error: 'enrollmentTokenId must be a UUID' }).describe('id of the enrollment token');

export class EnrollmentTokenDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'the first 12 characters of the token, to recognise it', example: 'twe_Qm3k9aZe' }) token_prefix!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', description: 'after this instant the token enrolls nothing' }) expires_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when an agent enrolled with it (a token enrolls one agent)' })
  used_at!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'the agent it enrolled' })
  agent_id!: string | null;
  @ApiProperty({ enum: ['usable', 'used', 'expired'] }) status!: 'usable' | 'used' | 'expired';
  @ApiProperty({ type: CreatedByDto }) created_by!: CreatedByDto;
}

/** The answer of POST /v1/enrollment-tokens: the only time the token is shown. */
export class CreatedEnrollmentTokenDto extends EnrollmentTokenDto {
  @ApiProperty({ description: 'the token, shown once: `curl -fsSL <api>/install.sh | sudo sh -s -- --token <token>`; only its SHA-256 is stored' })
  token!: string;
}

export class EnrollmentTokenPageDto extends PageDto(EnrollmentTokenDto) {}

/** @param now the instant the status is judged at (the database's, so that tests with PostgreSQL agree). */
export function mapEnrollmentToken(row: EnrollmentTokenRow, now = new Date()): EnrollmentTokenDto {
  return {
    id: row.id,
    name: row.name,
    token_prefix: row.token_prefix,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    used_at: row.used_at?.toISOString() ?? null,
    agent_id: row.agent_id,
    status: row.used_at ? 'used' : row.expires_at <= now ? 'expired' : 'usable',
    created_by: { kind: row.created_by_kind, id: row.created_by_id },
  };
}
