import "server-only";
// Reads of the administration pages (settings, agents): one function per API call.
import type { z } from "zod";
import { ApiKeyPage, type ApiKeyStatus, AuditPage, ChannelList, DeliveryPage, type DeliveryStatus, InvitationList, MemberList, RouteList } from "./account-schemas";
import { AgentPage, type AgentStatus, EnrollmentTokenPage } from "./agent-schemas";
import { getJson } from "./api-client";

/** The query string of a page request: the given filters (unset ones left out), `cursor` and `limit`. */
function pageQuery(cursor: string | null, limit: number, filters: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

/** Members of the signed-in organization with their roles (GET /v1/organization/members). */
export function listMembers() {
  return getJson("/v1/organization/members", MemberList);
}

/** Pending invitations (GET /v1/organization/invitations). */
export function listInvitations() {
  return getJson("/v1/organization/invitations", InvitationList);
}

/** One page of API keys, newest first, without secrets (GET /v1/api-keys; admins). */
export function listApiKeys(status: z.infer<typeof ApiKeyStatus>, cursor: string | null, limit = 25) {
  return getJson(`/v1/api-keys?${pageQuery(cursor, limit, { status })}`, ApiKeyPage);
}

/** One page of the audit log, newest first, optionally of one action (GET /v1/audit-log; admins). */
export function listAuditLog(action: string | undefined, cursor: string | null, limit = 50) {
  return getJson(`/v1/audit-log?${pageQuery(cursor, limit, { action })}`, AuditPage);
}

/** Notification channels, oldest first (GET /v1/notifications/channels). */
export function listChannels() {
  return getJson("/v1/notifications/channels", ChannelList);
}

/** Notification routes, oldest first (GET /v1/notifications/routes). */
export function listRoutes() {
  return getJson("/v1/notifications/routes", RouteList);
}

/** One page of the delivery log, newest first, optionally in one state (GET /v1/notifications/deliveries). */
export function listDeliveries(status: z.infer<typeof DeliveryStatus> | undefined, cursor: string | null, limit = 50) {
  return getJson(`/v1/notifications/deliveries?${pageQuery(cursor, limit, { status })}`, DeliveryPage);
}

/** One page of the tenant's agents with their last reported health, newest first (GET /v1/agents). */
export function listAgents(status: z.infer<typeof AgentStatus>, cursor: string | null, limit = 50) {
  return getJson(`/v1/agents?${pageQuery(cursor, limit, { status })}`, AgentPage);
}

/** The newest enrollment tokens that can still enroll an agent (GET /v1/enrollment-tokens?status=usable; admins). */
export function listUsableEnrollmentTokens(limit = 20) {
  return getJson(`/v1/enrollment-tokens?${pageQuery(null, limit, { status: "usable" })}`, EnrollmentTokenPage);
}
