import { createHash } from 'node:crypto';
import { type DesiredPolicy, pseudonymousIdSchema } from '@tierwise/common';
import { z } from 'zod';

/** Longest wait of a long-poll, seconds (below the 30 s idle timeouts of common proxies). */
export const MAX_WAIT_SECONDS = 25;

/** Most volumes one agent request names (the query string stays below Node's 16 KiB header limit). */
export const MAX_VOLUMES_PER_REQUEST = 500;


/** Query of GET /v1/agent/policies: `volumes`, the comma-separated volume ids the agent serves. */
export const policyQuerySchema = z.object({
  volumes: z
    .string()
    .transform((s) => s.split(','))
    .pipe(z.array(pseudonymousIdSchema('each volume id')).min(1).max(MAX_VOLUMES_PER_REQUEST))
    .describe('comma-separated volume ids'),
});
export type PolicyQuery = z.output<typeof policyQuerySchema>;

/** The document an agent pulls: the desired policies of the volumes it named that have one. */
export interface PolicyDocument {
  /** entity tag of the document: changes whenever a policy's version does */
  etag: string;
  policies: DesiredPolicy[];
}

/**
 * Builds the document with its entity tag: the first 16 hex characters of SHA-256 over the
 * (volume_id, version) pairs in volume id order, quoted (RFC 9110 §8.8.3). Versions only grow,
 * so a changed policy always changes the tag.
 */
export function policyDocument(policies: DesiredPolicy[]): PolicyDocument {
  const sorted = [...policies].sort((a, b) => (a.volume_id < b.volume_id ? -1 : a.volume_id > b.volume_id ? 1 : 0));
  const digest = createHash('sha256');
  for (const p of sorted) digest.update(`${p.volume_id}:${p.version}\n`);
  return { etag: `"${digest.digest('hex').slice(0, 16)}"`, policies: sorted };
}

/**
 * Seconds the client asks to wait for a change: RFC 7240 `Prefer: wait=N`, capped at
 * {@link MAX_WAIT_SECONDS}; 0 without the preference (answer at once).
 */
export function preferredWaitSeconds(prefer: string | undefined): number {
  const match = /(?:^|[,;\s])wait\s*=\s*"?(\d+)"?/i.exec(prefer ?? '');
  return match ? Math.min(Number(match[1]), MAX_WAIT_SECONDS) : 0;
}

/** Body of POST /v1/agent/policies/applied: what the agent applied, per volume. */
export const appliedReportSchema = z.object({
  reports: z
    .array(
      z.object({
        volume_id: pseudonymousIdSchema('volume_id'),
        version: z.number().int().min(1).max(2_147_483_647).describe('the desired version the agent acted on'),
        applied_at: z.iso.datetime({ offset: true }).describe('when the agent applied it (its clock; later than now is taken as now)'),
        error: z
          .string()
          .min(1)
          .max(1000)
          .regex(/^[^\u0000-\u001f\u007f]*$/, 'error must not contain control characters')
          .nullable()
          .describe('what of the version the agent could not apply; null when it applied all of it'),
      }),
    )
    .min(1)
    .max(MAX_VOLUMES_PER_REQUEST)
    .refine((reports) => new Set(reports.map((r) => r.volume_id)).size === reports.length, 'each volume_id may appear once'),
});
export type AppliedReport = z.output<typeof appliedReportSchema>;
