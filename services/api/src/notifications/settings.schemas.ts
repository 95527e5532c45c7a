import { ALERT_KINDS, CHANNEL_EVENT_KINDS, DELIVERY_STATUSES, DIGESTS, pseudonymousIdSchema, SEVERITIES } from '@tierwise/common';
import { z } from 'zod';

/**
 * Request bodies of the notification settings (zod; the OpenAPI document is generated from
 * them). Database constraints (db/migrations/1700000000500_notification_settings.sql) back
 * every rule here; a body that passes zod but breaks one answers 400 naming the constraint.
 */


/** An IANA time zone name this runtime knows (PostgreSQL checks it again). */
const timeZone = z
  .string()
  .refine((name) => name === 'UTC' || Intl.supportedValuesOf('timeZone').includes(name), 'must be an IANA time zone such as Europe/Paris')
  .describe('IANA time zone, e.g. Europe/Paris');

const name = z.string().trim().min(1).max(100).describe('a label people recognise');
const email = z.email().max(254).describe('recipient address');
const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2000)
  .describe('Slack incoming-webhook URL on the trusted webhook origin (https://hooks.slack.com unless the deployment sets another); any other host, port or scheme, or a user name or password, answers 400 (secret: never returned)');
const slackChannel = z.string().regex(/^#?[A-Za-z0-9._-]{1,80}$/, 'must be a Slack channel id (C…) or #name').describe('Slack channel id or #name');
const botToken = z.string().regex(/^xox[bpe]-[A-Za-z0-9-]{8,}$/, 'must be a Slack bot token (xoxb-…)').describe('Slack bot token for chat.postMessage (secret: never returned)');
const digest = z.enum(DIGESTS).describe('immediate: one mail per event; daily or weekly: one digest mail per period');

/** POST /v1/notifications/channels. */
export const channelCreateSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('email'), name, target: email, digest: digest.default('immediate'), digest_timezone: timeZone.default('UTC'), enabled: z.boolean().default(true) }),
  z.strictObject({ kind: z.literal('slack-webhook'), name, target: webhookUrl, enabled: z.boolean().default(true) }),
  z.strictObject({ kind: z.literal('slack-bot'), name, target: slackChannel, secret: botToken, enabled: z.boolean().default(true) }),
]);

/** PATCH /v1/notifications/channels/{channelId}; `enabled: true` also clears a recipient's unsubscribe. */
export const channelUpdateSchema = z.strictObject({
  name: name.optional(),
  target: z.string().min(1).max(2000).optional().describe('address, webhook URL (on the trusted webhook origin, as at creation) or Slack channel, by the channel kind'),
  secret: botToken.optional(),
  digest: digest.optional(),
  digest_timezone: timeZone.optional(),
  enabled: z.boolean().optional(),
});

const eventKinds = z.array(z.enum(CHANNEL_EVENT_KINDS)).min(1).max(CHANNEL_EVENT_KINDS.length).describe('event kinds this route sends');
const minSeverity = z.enum(SEVERITIES).describe('lowest severity sent (recommendations are info)');

/** POST /v1/notifications/routes. */
export const routeCreateSchema = z.strictObject({
  channel_id: z.uuid().describe('a channel of the tenant'),
  event_kinds: eventKinds,
  min_severity: minSeverity.default('info'),
});
/** PATCH /v1/notifications/routes/{routeId}. */
export const routeUpdateSchema = z.strictObject({ event_kinds: eventKinds.optional(), min_severity: minSeverity.optional() });

const ruleFields = {
  name,
  volume_id: pseudonymousIdSchema('volume_id').nullable().describe('one volume, or null for every volume'),
  bin_upper_bytes: z.number().int().positive().nullable().describe('latency rules: the vscsiStats ioLength bin (upper bound, bytes); null otherwise'),
  threshold: z.number().nonnegative().describe('hit_ratio_drop: ratio (0.2 = 20 points); agent_silent: seconds; latency: microseconds; destage_backlog: bytes; write_back_fallback: unused (0); device_errors: destage and tier errors per window (0 = any error)'),
  window_seconds: z.number().int().min(10).max(86_400).describe('seconds of metrics the rule looks at'),
  severity: z.enum(SEVERITIES),
  enabled: z.boolean(),
};

/** POST /v1/notifications/alert-rules. */
export const ruleCreateSchema = z
  .strictObject({
    ...ruleFields,
    kind: z.enum(ALERT_KINDS),
    volume_id: ruleFields.volume_id.default(null),
    bin_upper_bytes: ruleFields.bin_upper_bytes.default(null),
    window_seconds: ruleFields.window_seconds.default(300),
    severity: ruleFields.severity.default('warning'),
    enabled: ruleFields.enabled.default(true),
  })
  .refine((rule) => (rule.kind === 'latency') === (rule.bin_upper_bytes !== null), {
    message: 'bin_upper_bytes is required for latency rules and only for them',
    path: ['bin_upper_bytes'],
  });
/** PATCH /v1/notifications/alert-rules/{ruleId}. */
export const ruleUpdateSchema = z.strictObject(Object.fromEntries(Object.entries(ruleFields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof ruleFields]: z.ZodOptional<(typeof ruleFields)[K]>;
});

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24 h)');
const windowFields = {
  name,
  timezone: timeZone,
  days: z.array(z.number().int().min(1).max(7)).min(1).max(7).describe('ISO days of week the window starts on, 1 = Monday'),
  starts: clock.describe('local start, HH:MM'),
  ends: clock.describe('local end, HH:MM; earlier than starts wraps past midnight'),
};

/** POST /v1/notifications/mute-windows. */
export const muteWindowCreateSchema = z
  .strictObject({ ...windowFields, channel_id: z.uuid().nullable().default(null).describe('one channel, or null for every channel'), days: windowFields.days.default([1, 2, 3, 4, 5, 6, 7]) })
  .refine((window) => window.starts !== window.ends, { message: 'starts and ends must differ', path: ['ends'] });
/** PATCH /v1/notifications/mute-windows/{windowId}. */
export const muteWindowUpdateSchema = z.strictObject(Object.fromEntries(Object.entries(windowFields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof windowFields]: z.ZodOptional<(typeof windowFields)[K]>;
});

/** Path parameter of a settings resource. */
export const settingsIdSchema = z.uuid({ error: 'must be a UUID' });

/** Query of GET /v1/notifications/deliveries. */
export const deliveryListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('page size, 1-200'),
  cursor: z.string().max(64).optional().describe('next_cursor of the previous page'),
  status: z.enum(DELIVERY_STATUSES).optional().describe('only deliveries in this state (dead = the dead letter)'),
});
export type DeliveryListQuery = z.output<typeof deliveryListQuerySchema>;

/** Path parameter deliveryId (deliveries.id). */
export const deliveryIdSchema = z.string().regex(/^[1-9]\d{0,17}$/, 'deliveryId must be a delivery id (a positive integer)');

/** Query of the unsubscribe endpoints. */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(300).describe('the signed token of the e-mail link') });
