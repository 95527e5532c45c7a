import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { timestampSchema } from '../http/timestamp.js';

/** An audit_log row. */
export interface AuditRow {
  id: string;
  at: Date;
  actor_kind: 'user' | 'api_key';
  actor_id: string;
  action: string;
  target_kind: string;
  target_id: string;
  /** The volume's name when the target is a volume with one (its current name). */
  target_display_name: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  user_agent: string | null;
}

/** Query of GET /v1/audit-log: newest first. */
export const auditListQuerySchema = z.object({
  ...pageQueryShape,
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'action must look like api_key.create').optional().describe('only entries of this action, e.g. volume_policy.set'),
  actor_id: z.uuid().optional().describe('only changes made by this user or API key'),
  target_id: z.string().min(1).max(128).optional().describe('only changes of this target (volume id, API key id)'),
  since: timestampSchema.optional().describe('only entries at or after this time (RFC 3339)'),
});
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

export class AuditActorDto {
  @ApiProperty({ enum: ['user', 'api_key'] }) kind!: 'user' | 'api_key';
  @ApiProperty({ format: 'uuid', description: 'users.id or api_keys.id' }) id!: string;
}

export class AuditEntryDto {
  @ApiProperty({ description: 'increasing id of the entry' }) id!: string;
  @ApiProperty({ format: 'date-time', description: 'when the change was committed' }) at!: string;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ example: 'volume_policy.set', description: '<target kind>.<verb>' }) action!: string;
  @ApiProperty({ example: 'volume' }) target_kind!: string;
  @ApiProperty({ description: 'id of the changed thing' }) target_id!: string;
  @ApiProperty({ type: String, nullable: true, description: "the volume's current name when the target is a volume whose host opted in to names; null otherwise" })
  target_display_name!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'summary of the target before the change (null when created)' })
  before!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'summary of the target after the change (null when deleted)' })
  after!: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true, description: 'client address' }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) user_agent!: string | null;
}

export class AuditPageDto extends PageDto(AuditEntryDto) {}

export function mapAuditEntry(row: AuditRow): AuditEntryDto {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actor_kind, id: row.actor_id },
    action: row.action,
    target_kind: row.target_kind,
    target_id: row.target_id,
    target_display_name: row.target_display_name,
    before: row.before,
    after: row.after,
    ip: row.ip,
    user_agent: row.user_agent,
  };
}
