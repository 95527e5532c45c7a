import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { displayNameSchema } from '../http/display-name.js';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { hostIdSchema } from '../hosts/host.dto.js';

/** An agents row, without its credential digest. */
export interface AgentRow {
  id: string;
  name: string;
  host_id: string | null;
  version: string | null;
  created_at: Date;
  enrolled_at: Date | null;
  revoked_at: Date | null;
  last_report_at: Date | null;
  uptime_seconds: string | null;
  tier_used_bytes: string | null;
  tier_capacity_bytes: string | null;
  volume_count: number | null;
  error_count: string | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_telemetry_at: Date | null;
}

/** Query of GET /v1/agents: newest first. */
export const agentListQuerySchema = z.object({
  ...pageQueryShape,
  status: z.enum(['active', 'revoked', 'all']).default('active').describe('active (not revoked, the default), revoked or all'),
});
export type AgentListQuery = z.output<typeof agentListQuerySchema>;

/** Path parameter agentId. */
export const agentIdSchema = z.uuid({ error: 'agentId must be a UUID' }).describe('id of the agent');

/** A version string as the agent prints it (`tierwise-agent --version`). */
const versionSchema = z.string().regex(/^[\w.+~-]{1,64}$/, 'must be 1-64 characters of [A-Za-z0-9_.+~-]');

/** Body of POST /v1/agents/enroll. */
export const enrollSchema = z.object({
  enrollment_token: z.string().min(1).max(200).describe('the one-time token of POST /v1/enrollment-tokens').meta({ example: 'twe_Qm3k9aZe0000000000000000000000000000000000' }),
  host_id: hostIdSchema.describe('keyed hash of the host name under the tenant key (`tierwise-agent host-id`)').meta({ example: '3f9a0c1d2e4b5a69' }),
  version: versionSchema.describe('the agent version').meta({ example: '0.1.0' }),
  name: displayNameSchema
    .optional()
    .describe('display name; default "agent <host_id>" (a host name is sent only when the tenant opts in)'),
});
export type Enroll = z.output<typeof enrollSchema>;

/** Body of PUT /v1/agent/health: what the agent measures of itself. */
export const agentHealthSchema = z.object({
  version: versionSchema.describe('the running agent version'),
  uptime_seconds: z.number().int().min(0).describe('seconds since the agent process started'),
  volume_count: z.number().int().min(0).max(100_000).describe('volumes served'),
  tier_used_bytes: z.number().int().min(0).describe('bytes of cache tier holding blocks, all volumes'),
  tier_capacity_bytes: z.number().int().min(0).describe('bytes of cache tier configured, all volumes'),
  error_count: z.number().int().min(0).describe('errors since the agent started (failed exports, rejected batches, I/O errors)'),
  last_error: z.string().max(1000).regex(/^[^\x00]*$/, 'must not contain NUL').nullable().default(null).describe('the last error message, or null'),
});
export type AgentHealth = z.output<typeof agentHealthSchema>;

/** What an agent reported last (null fields until its first report). */
export class AgentHealthDto {
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the agent last reported' }) last_report_at!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'seconds the agent process had been running at its last report' }) uptime_seconds!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'volumes served' }) volume_count!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'bytes of cache tier holding blocks' }) tier_used_bytes!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'bytes of cache tier configured' }) tier_capacity_bytes!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'errors since the agent started' }) error_count!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'the last error message' }) last_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the last error was first reported' }) last_error_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'when ingest last accepted a batch of the agent’s telemetry (metrics or references); set for an agent that only replays traces, which reports no health',
  })
  last_telemetry_at!: string | null;
}

export class AgentDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true, description: 'keyed hash of the host name (16 hex characters); null for a credential made by the seed command' }) host_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'agent version (the last reported, else the enrolled one)' }) version!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when it enrolled with an enrollment token' }) enrolled_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when it was revoked; a revoked agent’s batches and reports are refused' }) revoked_at!: string | null;
  @ApiProperty({ type: AgentHealthDto }) health!: AgentHealthDto;
}

export class AgentPageDto extends PageDto(AgentDto) {}

/** The answer of POST /v1/agents/enroll: the agent's credential, shown once. */
export class EnrolledAgentDto {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ description: 'the agent credential: `Authorization: Bearer <credential>` to ingest and to /v1/agent/*; only its SHA-256 is stored' }) credential!: string;
}

/** The answer of PUT /v1/agent/health. */
export class AgentHealthReceiptDto {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ format: 'date-time' }) last_report_at!: string;
}

const count = (value: string | number | null): number | null => (value === null ? null : Number(value));

export function mapAgent(row: AgentRow): AgentDto {
  return {
    id: row.id,
    name: row.name,
    host_id: row.host_id,
    version: row.version,
    created_at: row.created_at.toISOString(),
    enrolled_at: row.enrolled_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    health: {
      last_report_at: row.last_report_at?.toISOString() ?? null,
      uptime_seconds: count(row.uptime_seconds),
      volume_count: row.volume_count,
      tier_used_bytes: count(row.tier_used_bytes),
      tier_capacity_bytes: count(row.tier_capacity_bytes),
      error_count: count(row.error_count),
      last_error: row.last_error,
      last_error_at: row.last_error_at?.toISOString() ?? null,
      last_telemetry_at: row.last_telemetry_at?.toISOString() ?? null,
    },
  };
}
