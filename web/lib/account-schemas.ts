import { z } from "zod";
import { Role } from "./permissions";

/**
 * Zod schemas of the API's account and administration answers (services/api/openapi.json,
 * tags organization, api-keys, audit, notifications). Timestamps are ISO 8601 strings.
 */

const Timestamp = z.iso.datetime({ offset: true });
const Id = z.uuid();

/** A page of a cursor-paginated list: `next_cursor` is null on the last page. */
function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

/** GET /v1/organization/members. */
export const Member = z.object({ user_id: Id, email: z.string(), display_name: z.string(), role: Role, joined_at: Timestamp });
export type Member = z.infer<typeof Member>;
export const MemberList = z.object({ members: z.array(Member) });

/** GET/POST /v1/organization/invitations. */
export const Invitation = z.object({ id: Id, email: z.string(), role: Role, invited_by: Id.nullable(), created_at: Timestamp, expires_at: Timestamp });
export type Invitation = z.infer<typeof Invitation>;
export const InvitationList = z.object({ invitations: z.array(Invitation) });

/** API key scopes: read acts as a viewer, read-write as an admin (docs/accounts.md). */
export const ApiKeyScope = z.enum(["read", "read-write"]);
const Actor = z.object({ kind: z.enum(["user", "api_key"]), id: Id });

/** GET /v1/api-keys (never with the secret). */
export const ApiKey = z.object({
  id: Id,
  name: z.string(),
  scope: ApiKeyScope,
  key_prefix: z.string().nullable(),
  created_at: Timestamp,
  last_used_at: Timestamp.nullable(),
  revoked_at: Timestamp.nullable(),
  created_by: Actor.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeyPage = page(ApiKey);
/** POST /v1/api-keys: the only answer that holds the secret. */
export const CreatedApiKey = ApiKey.extend({ key: z.string().min(1) });
/** Which keys GET /v1/api-keys lists. */
export const ApiKeyStatus = z.enum(["active", "revoked", "all"]);

/** GET /v1/audit-log: one change, its actor and the state before and after. */
export const AuditEntry = z.object({
  id: z.string(),
  at: Timestamp,
  actor: Actor,
  action: z.string(),
  target_kind: z.string(),
  target_id: z.string(),
  /** The volume's current name when the target is a named volume, else null. */
  target_display_name: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditPage = page(AuditEntry);

/** Notification channel kinds (docs/notifications.md). */
export const ChannelKind = z.enum(["email", "slack-webhook", "slack-bot"]);
export const Channel = z.object({
  id: Id,
  kind: ChannelKind,
  name: z.string(),
  target: z.string().nullable(),
  target_hint: z.string().nullable(),
  has_secret: z.boolean(),
  digest: z.enum(["immediate", "daily", "weekly"]),
  digest_timezone: z.string(),
  enabled: z.boolean(),
  unsubscribed_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type Channel = z.infer<typeof Channel>;
export const ChannelList = z.object({ data: z.array(Channel) });

export const EventKind = z.enum(["recommendation.created", "recommendation.updated", "alert.firing", "alert.resolved"]);
export const Severity = z.enum(["info", "warning", "critical"]);
export const Route = z.object({
  id: Id,
  channel_id: Id,
  channel_name: z.string(),
  channel_kind: z.string(),
  event_kinds: z.array(z.string()),
  min_severity: Severity,
  created_at: Timestamp,
});
export type Route = z.infer<typeof Route>;
export const RouteList = z.object({ data: z.array(Route) });

/** Delivery states: dead is the dead letter (attempts exhausted). */
export const DeliveryStatus = z.enum(["pending", "held", "sent", "dead"]);
export const Delivery = z.object({
  id: z.string(),
  event_id: z.string(),
  event_kind: z.string(),
  severity: Severity,
  event_subject: z.string().nullable(),
  channel_id: Id.nullable(),
  channel_kind: z.string(),
  channel_name: z.string().nullable(),
  status: DeliveryStatus,
  attempts: z.number().int().nonnegative(),
  last_error: z.string().nullable(),
  next_attempt_at: Timestamp.nullable(),
  sent_at: Timestamp.nullable(),
  created_at: Timestamp,
});
export type Delivery = z.infer<typeof Delivery>;
export const DeliveryPage = page(Delivery);
