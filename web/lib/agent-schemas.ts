import { z } from "zod";

/**
 * Zod schemas of the API's agent answers (services/api/src/agents: GET /v1/agents,
 * /v1/enrollment-tokens). Sizes in bytes, durations in seconds, timestamps ISO 8601.
 */

const Timestamp = z.iso.datetime({ offset: true });
const Id = z.uuid();
const Actor = z.object({ kind: z.enum(["user", "api_key"]), id: Id });

/** What an agent last reported of itself (PUT /v1/agent/health); all null before its first report. */
export const AgentHealth = z.object({
  last_report_at: Timestamp.nullable(),
  uptime_seconds: z.number().nonnegative().nullable(),
  volume_count: z.number().int().nonnegative().nullable(),
  tier_used_bytes: z.number().nonnegative().nullable(),
  tier_capacity_bytes: z.number().nonnegative().nullable(),
  error_count: z.number().int().nonnegative().nullable(),
  last_error: z.string().nullable(),
  last_error_at: Timestamp.nullable(),
  /** When ingest last accepted a batch of the agent's telemetry (also for an agent that only replays traces). */
  last_telemetry_at: Timestamp.nullable(),
});
export type AgentHealth = z.infer<typeof AgentHealth>;

export const Agent = z.object({
  id: Id,
  name: z.string(),
  /** Keyed hash of the host name (16 hex characters), never the name; null for a seeded credential. */
  host_id: z.string().nullable(),
  /** The host's name when it opted in (`--send-names`), else null. */
  host_display_name: z.string().nullable(),
  version: z.string().nullable(),
  created_at: Timestamp,
  enrolled_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  health: AgentHealth,
});
export type Agent = z.infer<typeof Agent>;
export const AgentPage = z.object({ data: z.array(Agent), next_cursor: z.string().nullable() });
export const AgentStatus = z.enum(["active", "revoked", "all"]);

/** A single-use enrollment token (without the token itself). */
export const EnrollmentToken = z.object({
  id: Id,
  name: z.string(),
  token_prefix: z.string(),
  created_at: Timestamp,
  expires_at: Timestamp,
  used_at: Timestamp.nullable(),
  agent_id: Id.nullable(),
  status: z.enum(["usable", "used", "expired"]),
  created_by: Actor,
});
export type EnrollmentToken = z.infer<typeof EnrollmentToken>;
export const EnrollmentTokenPage = z.object({ data: z.array(EnrollmentToken), next_cursor: z.string().nullable() });
/** POST /v1/enrollment-tokens: the only answer holding the token. */
export const CreatedEnrollmentToken = EnrollmentToken.extend({ token: z.string().min(1) });
