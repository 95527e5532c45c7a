import { ACCOUNT_EMAIL_KIND, ALERT_KINDS, MEDIA, SEVERITIES, type Severity } from '@tierwise/common';
import { z } from 'zod';

/**
 * Payload of a recommendation event, as built by `enqueue_recommendation_event()`
 * (db/migrations/1700000000001_notifier.sql). Sizes in bytes, ratios in [0, 1].
 */
export const recommendationPayloadSchema = z.object({
  volume_id: z.string().min(1),
  tier_bytes: z.number().int().nonnegative(),
  media: z.enum(MEDIA),
  policy: z.string().min(1),
  predicted_hit_ratio: z.number().min(0).max(1),
  achievable_hit_ratio: z.number().min(0).max(1),
  target_hit_ratio: z.number().min(0).max(1),
  explanation: z.string(),
  created_at: z.string(),
});

/**
 * Payload of alert.firing / alert.resolved (written by the alert evaluator, src/alerts).
 * `value` and `threshold` are in the rule's unit: a ratio (hit_ratio_drop), seconds
 * (agent_silent), microseconds (latency), bytes (destage_backlog), unused (write_back_fallback),
 * errors per window (device_errors). `details` (alert_incidents.details): device_errors' destage
 * and tier errors and the window they were counted over; null for other kinds, absent in events
 * written before it.
 */
export const alertPayloadSchema = z.object({
  incident_id: z.number().int(),
  rule_id: z.uuid(),
  rule_name: z.string(),
  rule_kind: z.enum(ALERT_KINDS),
  subject: z.string().min(1),
  bin_upper_bytes: z.number().int().nullable(),
  value: z.number(),
  threshold: z.number(),
  details: z
    .object({ destage_errors: z.number().int().nonnegative(), tier_errors: z.number().int().nonnegative(), window_seconds: z.number().int().positive() })
    .nullish(),
  opened_at: z.string(),
  resolved_at: z.string().nullable(),
});

/** Payload of account.email (written by the accounts code): one message to one address. */
export const accountEmailPayloadSchema = z.object({
  to: z.email(),
  subject: z.string().min(1).max(998),
  text: z.string().min(1),
  html: z.string().min(1),
});

export type RecommendationEvent = z.output<typeof recommendationPayloadSchema> & { kind: 'recommendation.created' | 'recommendation.updated' };
export type AlertEvent = z.output<typeof alertPayloadSchema> & { kind: 'alert.firing' | 'alert.resolved'; severity: Severity };
export type AccountEmailEvent = z.output<typeof accountEmailPayloadSchema> & { kind: 'account.email' };
/** An event a tenant channel can receive. */
export type ChannelEvent = RecommendationEvent | AlertEvent;
export type NotifierEvent = ChannelEvent | AccountEmailEvent;

function parsePayload<S extends z.ZodType>(schema: S, kind: string, payload: unknown): z.output<S> {
  const result = schema.safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`malformed ${kind} payload: ${issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}

/**
 * Validates an outbox row's kind, severity and payload.
 *
 * @throws Error naming the unknown kind or the first malformed field (the delivery goes dead).
 */
export function parseEvent(kind: string, severity: string, payload: unknown): NotifierEvent {
  switch (kind) {
    case 'recommendation.created':
    case 'recommendation.updated':
      return { ...parsePayload(recommendationPayloadSchema, kind, payload), kind };
    case 'alert.firing':
    case 'alert.resolved':
      return { ...parsePayload(alertPayloadSchema, kind, payload), kind, severity: z.enum(SEVERITIES).parse(severity) };
    case ACCOUNT_EMAIL_KIND:
      return { ...parsePayload(accountEmailPayloadSchema, kind, payload), kind };
    default:
      throw new Error(`unknown event kind ${JSON.stringify(kind)}`);
  }
}
