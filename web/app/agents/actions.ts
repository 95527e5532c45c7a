"use server";

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Agent, CreatedEnrollmentToken, EnrollmentToken } from "@/lib/agent-schemas";
import { formAction, parseForm } from "@/lib/actions";
import { readPublicApiUrl } from "@/lib/config";
import { sendJson } from "@/lib/session";
import { LIFETIMES } from "./lifetimes";

const RowId = z.object({ id: z.uuid("not an id") });

/**
 * Creates a single-use enrollment token (POST /v1/enrollment-tokens) and shows, once, the
 * command that installs and enrolls an agent with it on a host (the installer the api serves).
 */
export const createEnrollmentToken = formAction(
  async (form) => {
    const { name, lifetime } = parseForm(z.object({ name: z.string().trim().max(100).optional(), lifetime: z.enum(Object.keys(LIFETIMES) as [keyof typeof LIFETIMES]) }), form);
    const created = await sendJson(
      "POST",
      "/v1/enrollment-tokens",
      CreatedEnrollmentToken,
      { name: name || "enrollment token", expires_in_seconds: Number(lifetime) },
      { "Idempotency-Key": randomUUID() },
    );
    const baseUrl = await readPublicApiUrl();
    return {
      ok: true,
      message: `Token "${created.name}" enrolls one agent until ${new Date(created.expires_at).toUTCString()}. Run this on the host as root; it is shown only now.`,
      reveal: { label: "Install command", value: `curl -fsSL ${baseUrl}/install.sh | sudo sh -s -- --token ${created.token}` },
    };
  },
  { revalidate: "/agents" },
);

/** Deletes an unused enrollment token (DELETE /v1/enrollment-tokens/:id): it enrolls nothing any more. */
export const deleteEnrollmentToken = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    const token = await sendJson("DELETE", `/v1/enrollment-tokens/${encodeURIComponent(id)}`, EnrollmentToken);
    return { ok: true, message: `Token "${token.name}" deleted.` };
  },
  { revalidate: "/agents" },
);

/** Revokes an agent (DELETE /v1/agents/:id): ingest refuses its batches from its next request on. */
export const revokeAgent = formAction(
  async (form) => {
    const { id } = parseForm(RowId, form);
    const agent = await sendJson("DELETE", `/v1/agents/${encodeURIComponent(id)}`, Agent);
    return { ok: true, message: `Agent "${agent.name}" revoked; its data is kept, its new batches are refused.` };
  },
  { revalidate: "/agents" },
);

