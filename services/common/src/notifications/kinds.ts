/**
 * The vocabulary of notifications shared by the api (settings) and the notifier, as the
 * CHECK constraints of db/migrations/1700000000500_notification_settings.sql spell it
 * (alert_rules.kind: as 1700000000860_device_errors.sql redefines it).
 */

/** Severities of events and route filters, in increasing order (severity_rank). */
export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Outbox kinds routed to tenant channels (notification_routes.event_kinds). */
export const CHANNEL_EVENT_KINDS = ['recommendation.created', 'recommendation.updated', 'alert.firing', 'alert.resolved'] as const;

/** The outbox kind delivered to payload.to only, never to tenant channels. */
export const ACCOUNT_EMAIL_KIND = 'account.email';

/** Kinds of alert rules (alert_rules.kind). */
export const ALERT_KINDS = ['hit_ratio_drop', 'agent_silent', 'latency', 'destage_backlog', 'write_back_fallback', 'device_errors'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** E-mail channel digest preferences (notification_channels.digest). */
export const DIGESTS = ['immediate', 'daily', 'weekly'] as const;

/** Delivery states (deliveries.status): pending, held for a digest, sent, dead (dead letter). */
export const DELIVERY_STATUSES = ['pending', 'held', 'sent', 'dead'] as const;
