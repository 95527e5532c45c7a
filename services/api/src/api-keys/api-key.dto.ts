import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import type { ActorKind, Scope } from '../identity/principal.js';
import { displayNameSchema } from '@tierwise/common';
import { PageDto, pageQueryShape } from '../http/pagination.js';

/** An api_keys row, without its digest. */
export interface ApiKeyRow {
  id: string;
  name: string;
  scope: Scope;
  key_prefix: string | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_by_kind: ActorKind | null;
  created_by_id: string | null;
}

/** Body of POST /v1/api-keys. */
export const createApiKeySchema = z.object({
  name: displayNameSchema
    .describe('what the key is for, e.g. "terraform"')
    .meta({ example: 'terraform' }),
  scope: z.enum(['read', 'read-write']).describe("'read' (acts as a viewer) or 'read-write' (acts as an admin)").meta({ example: 'read' }),
});
export type CreateApiKey = z.output<typeof createApiKeySchema>;

/** Query of GET /v1/api-keys: newest first. */
export const apiKeyListQuerySchema = z.object({
  ...pageQueryShape,
  status: z.enum(['active', 'revoked', 'all']).default('active').describe('active (not revoked, the default), revoked or all'),
});
export type ApiKeyListQuery = z.output<typeof apiKeyListQuerySchema>;

/** Path parameter apiKeyId. */
export const apiKeyIdSchema = z.uuid({ error: 'apiKeyId must be a UUID' }).describe('id of the API key');

export class CreatedByDto {
  @ApiProperty({ enum: ['user', 'api_key'] }) kind!: ActorKind;
  @ApiProperty({ format: 'uuid' }) id!: string;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['read', 'read-write'] }) scope!: Scope;
  @ApiProperty({ type: String, nullable: true, description: 'the first 12 characters of the key, to recognise it', example: 'twk_3fJk9aQe' })
  key_prefix!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'last authenticated request, to the minute' })
  last_used_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the key was revoked; a revoked key is refused' })
  revoked_at!: string | null;
  @ApiProperty({ type: CreatedByDto, nullable: true, description: 'who created the key (null for keys made by the seed command)' })
  created_by!: CreatedByDto | null;
}

/** The answer of POST /v1/api-keys: the only time the secret is shown. */
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'the secret, shown once: send it as `Authorization: Bearer <key>`; only its SHA-256 is stored' })
  key!: string;
}

export class ApiKeyPageDto extends PageDto(ApiKeyDto) {}

export function mapApiKey(row: ApiKeyRow): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    key_prefix: row.key_prefix,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    created_by: row.created_by_kind && row.created_by_id ? { kind: row.created_by_kind, id: row.created_by_id } : null,
  };
}
