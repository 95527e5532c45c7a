import { z } from 'zod';

/** Kinds of outbox events the notifier renders (written by the trigger on recommendations). */
export const EVENT_KINDS = ['recommendation.created', 'recommendation.updated'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * Payload of a recommendation event, as built by `enqueue_recommendation_event()`
 * (db/migrations/1700000000001_notifier.sql). Sizes in bytes, ratios in [0, 1].
 */
export const recommendationEventSchema = z.object({
  volume_id: z.string().min(1),
  tier_bytes: z.number().int().nonnegative(),
  media: z.enum(['ram', 'nvme']),
  policy: z.string().min(1),
  predicted_hit_ratio: z.number().min(0).max(1),
  achievable_hit_ratio: z.number().min(0).max(1),
  target_hit_ratio: z.number().min(0).max(1),
  explanation: z.string(),
  created_at: z.string(),
});

export type RecommendationEvent = z.output<typeof recommendationEventSchema> & { kind: EventKind };

/**
 * Validates an outbox row's kind and payload.
 *
 * @throws Error naming the unknown kind or the first malformed field (the delivery goes dead).
 */
export function parseEvent(kind: string, payload: unknown): RecommendationEvent {
  if (!(EVENT_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`unknown event kind ${JSON.stringify(kind)}`);
  }
  const result = recommendationEventSchema.safeParse(payload);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`malformed ${kind} payload: ${issue.path.join('.')}: ${issue.message}`);
  }
  return { ...result.data, kind: kind as EventKind };
}
