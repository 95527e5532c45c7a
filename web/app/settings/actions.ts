"use server";

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ApiKey, ApiKeyScope, Channel, ChannelKind, CreatedApiKey, EventKind, Invitation, Route, Severity } from "@/lib/account-schemas";
import { formAction, parseForm } from "@/lib/actions";
import { Role } from "@/lib/permissions";
import { sendJson } from "@/lib/session";

/** Form fields naming one row (member, key, channel…) by its id. */
const RowId = z.object({ id: z.uuid("not an id") });
const NoContent = z.undefined();
const path = (id: string) => encodeURIComponent(id);

/** Invites an address with a role (POST /v1/organization/invitations); the API mails the link. */
export const inviteMember = formAction(
  async (form) => {
    const body = parseForm(z.object({ email: z.email("not an e-mail address").max(254), role: Role }), form);
    const invitation = await sendJson("POST", "/v1/organization/invitations", Invitation, body);
    return { ok: true, message: `Invitation mailed to ${invitation.email} as ${invitation.role}; the link works once, for 7 days.` };
  },
  { revalidate: "/settings/members" },
);

/** Revokes a pending invitation (DELETE /v1/organization/invitations/:id). */
export const revokeInvitation = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    await sendJson("DELETE", `/v1/organization/invitations/${path(id)}`, NoContent);
    return { ok: true, message: "Invitation revoked." };
  },
  { revalidate: "/settings/members" },
);

/** Changes a member's role (PATCH /v1/organization/members/:userId); owners only touch the owner role. */
export const changeRole = formAction(
  async (form) => {
    const { id, role } = parseForm(RowId.extend({ role: Role }), form);
    await sendJson("PATCH", `/v1/organization/members/${path(id)}`, NoContent, { role });
    return { ok: true, message: `Role changed to ${role}.` };
  },
  { revalidate: "/settings/members" },
);

/** Removes a member (DELETE /v1/organization/members/:userId): their sessions here end at once. */
export const removeMember = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    await sendJson("DELETE", `/v1/organization/members/${path(id)}`, NoContent);
    return { ok: true, message: "Member removed." };
  },
  { revalidate: "/settings/members" },
);

/**
 * Creates an API key (POST /v1/api-keys) and shows its secret this once. The Idempotency-Key
 * makes the API refuse a replay of the same submission instead of minting a second key.
 */
export const createApiKey = formAction(
  async (form) => {
    const body = parseForm(z.object({ name: z.string().trim().min(1, "required").max(100), scope: ApiKeyScope }), form);
    const key = await sendJson("POST", "/v1/api-keys", CreatedApiKey, body, { "Idempotency-Key": randomUUID() });
    return {
      ok: true,
      message: `Key "${key.name}" (${key.scope}) created. Copy it now: it is never shown again.`,
      reveal: { label: "New API key", value: key.key },
    };
  },
  { revalidate: "/settings/api-keys" },
);

/** Revokes an API key (DELETE /v1/api-keys/:id): refused from the next request on. */
export const revokeApiKey = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    const key = await sendJson("DELETE", `/v1/api-keys/${path(id)}`, ApiKey);
    return { ok: true, message: `Key "${key.name}" revoked.` };
  },
  { revalidate: "/settings/api-keys" },
);

/** Creates an e-mail or Slack channel (POST /v1/notifications/channels); a Slack bot needs its token. */
export const createChannel = formAction(
  async (form) => {
    const { kind, name, target, secret } = parseForm(
      z.object({ kind: ChannelKind, name: z.string().trim().min(1, "required").max(100), target: z.string().trim().min(1, "required").max(2000), secret: z.string().trim().optional() }),
      form,
    );
    const body = kind === "slack-bot" ? { kind, name, target, secret } : { kind, name, target };
    const channel = await sendJson("POST", "/v1/notifications/channels", Channel, body);
    return { ok: true, message: `Channel "${channel.name}" created.` };
  },
  { revalidate: "/settings/notifications" },
);

/** Pauses or resumes a channel (PATCH /v1/notifications/channels/:id {enabled}). */
export const setChannelEnabled = formAction(
  async (form) => {
    const { id, enabled } = parseForm(RowId.extend({ enabled: z.enum(["true", "false"]) }), form);
    const channel = await sendJson("PATCH", `/v1/notifications/channels/${path(id)}`, Channel, { enabled: enabled === "true" });
    return { ok: true, message: `Channel "${channel.name}" ${channel.enabled ? "resumed" : "paused"}.` };
  },
  { revalidate: "/settings/notifications" },
);

/** Deletes a channel and its routes (DELETE /v1/notifications/channels/:id). */
export const deleteChannel = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    await sendJson("DELETE", `/v1/notifications/channels/${path(id)}`, NoContent);
    return { ok: true, message: "Channel deleted." };
  },
  { revalidate: "/settings/notifications" },
);

/** Routes event kinds of at least a severity to a channel (POST /v1/notifications/routes). */
export const createRoute = formAction(
  async (form) => {
    const { channel_id, min_severity } = parseForm(z.object({ channel_id: z.uuid("choose a channel"), min_severity: Severity }), form);
    const kinds = z.array(EventKind).min(1, "choose at least one event kind").safeParse(form.getAll("event_kinds"));
    if (!kinds.success) return { ok: false, message: "event_kinds: choose at least one event kind" };
    const route = await sendJson("POST", "/v1/notifications/routes", Route, { channel_id, event_kinds: kinds.data, min_severity });
    return { ok: true, message: `Route to "${route.channel_name}" created.` };
  },
  { revalidate: "/settings/notifications" },
);

/** Deletes a route (DELETE /v1/notifications/routes/:id). */
export const deleteRoute = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    await sendJson("DELETE", `/v1/notifications/routes/${path(id)}`, NoContent);
    return { ok: true, message: "Route deleted." };
  },
  { revalidate: "/settings/notifications" },
);
