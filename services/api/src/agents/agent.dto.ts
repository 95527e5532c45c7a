import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { PageDto, pageQueryShape } from '../http/pagination.js';

/** An agents row, without its credential digest. */
export interface AgentRow {
  id: string;
  name: string;
  host_id: string | null;
  host_display_name: string | null;
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
    description: 'when ingest last saw telemetry (metrics or references) from one of the agent’s hosts, at most a minute behind; set for an agent that only replays traces, which reports no health',
  })
  last_telemetry_at!: string | null;
}

export class AgentDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true, description: 'keyed hash of the host name (16 hex characters); null for a credential made by the seed command' }) host_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'name of the host, only when it opted in (--send-names)' }) host_display_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'agent version (the last reported, else the enrolled one)' }) version!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when it enrolled with an enrollment token' }) enrolled_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when it was revoked; a revoked agent’s batches and reports are refused' }) revoked_at!: string | null;
  @ApiProperty({ type: AgentHealthDto }) health!: AgentHealthDto;
}

export class AgentPageDto extends PageDto(AgentDto) {}

const count = (value: string | number | null): number | null => (value === null ? null : Number(value));

export function mapAgent(row: AgentRow): AgentDto {
  return {
    id: row.id,
    name: row.name,
    host_id: row.host_id,
    host_display_name: row.host_display_name,
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
