import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { HOST_ID_PATTERN } from '../contracts/ids.js';
import { displayNameSchema } from '../http/display-name.js';

/** A version string as the agent prints it (`tierwise-agent --version`). */
const versionSchema = z.string().regex(/^[\w.+~-]{1,64}$/, 'must be 1-64 characters of [A-Za-z0-9_.+~-]');

/** Body of POST /v1/agents/enroll. */
export const enrollSchema = z.object({
  enrollment_token: z.string().min(1).max(200).describe('the one-time token of POST /v1/enrollment-tokens').meta({ example: 'twe_Qm3k9aZe0000000000000000000000000000000000' }),
  host_id: z
    .string()
    .regex(HOST_ID_PATTERN, 'must be 16 lower-case hex characters (the keyed hash of the host name)')
    .describe('keyed hash of the host name under the tenant key (`tierwise-agent host-id`)')
    .meta({ example: '3f9a0c1d2e4b5a69' }),
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

/** The answer of POST /v1/agents/enroll: the agent's credential, shown once. */
export class EnrolledAgentDto {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ description: 'the agent credential: `Authorization: Bearer <credential>` on every route of the agent gateway; only its SHA-256 is stored' }) credential!: string;
}

/** The answer of PUT /v1/agent/health. */
export class AgentHealthReceiptDto {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ format: 'date-time' }) last_report_at!: string;
}
