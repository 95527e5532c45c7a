"use server";

import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { EVICTIONS } from "@tierwise/common/contracts";
import { z } from "zod";
import { formAction, parseForm } from "@/lib/actions";
import { sendJson } from "@/lib/session";

const VolumeId = z.string().regex(/^[0-9a-f]{8,64}$/, "not a volume id");

/** What POST /v1/recommendations/:volumeId/apply answers (only what the message needs). */
const Applied = z.object({
  recommendation: z.object({ status: z.string() }),
  policy: z.object({ version: z.number(), tier_bytes: z.number(), mode: z.string() }),
});
const Dismissed = z.object({ status: z.string() });

/**
 * Applies a volume's recommendation (POST /v1/recommendations/:volumeId/apply): it becomes the
 * volume's desired policy, a new version the agent applies at its next pull. `created_at` is
 * the version the user saw: a newer recommendation is refused (409) rather than applied blind.
 */
export const applyRecommendation = formAction(async (form) => {
  const { id, created_at, eviction } = parseForm(
    z.object({ id: VolumeId, created_at: z.iso.datetime({ offset: true }), eviction: z.enum(EVICTIONS) }),
    form,
  );
  const applied = await sendJson("POST", `/v1/recommendations/${id}/apply`, Applied, { created_at, eviction }, { "Idempotency-Key": randomUUID() });
  revalidatePath(`/recommendations/${id}`);
  return { ok: true, message: `Applied: policy v${applied.policy.version} (${applied.policy.mode}) is the volume's desired policy; its agent applies it at its next policy pull.` };
});

/** Dismisses a volume's recommendation (POST /v1/recommendations/:volumeId/dismiss) until it changes. */
export const dismissRecommendation = formAction(async (form) => {
  const { id, reason } = parseForm(z.object({ id: VolumeId, reason: z.string().trim().max(500).optional() }), form);
  await sendJson("POST", `/v1/recommendations/${id}/dismiss`, Dismissed, reason ? { reason } : {}, { "Idempotency-Key": randomUUID() });
  revalidatePath(`/recommendations/${id}`);
  return { ok: true, message: "Dismissed: it stays dismissed until the recommendation changes." };
});
