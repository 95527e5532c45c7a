/**
 * The four notification settings resources as tables: which columns a request may write and
 * what a response shows. Column names here are fixed identifiers (never request input), so the
 * repository may put them in SQL text; values always go as parameters.
 */
export interface SettingsResource {
  /** Path segment under /v1/notifications and the noun of error messages. */
  path: 'channels' | 'routes' | 'alert-rules' | 'mute-windows';
  noun: string;
  table: string;
  /** Columns a create or update body may set (body keys of the same names). */
  writable: readonly string[];
  /** Columns given as SQL casts (e.g. time, smallint[]). */
  casts?: Readonly<Record<string, string>>;
  /** SELECT list over the table aliased `t` (and joins in `from`), as the response shows it. */
  select: string;
  /** FROM clause with `t` (default: the table alone). */
  from?: string;
  /** Extra assignments of an update, given its body (e.g. re-enabling clears an unsubscribe). */
  extraUpdates?: (body: Record<string, unknown>) => string[];
  /** Kinds whose `target` is a tenant-given URL: a written one must pass the egress guard (WebhookTargetCheck). */
  urlTargetKinds?: readonly string[];
}

/** Slack targets and bot tokens are secrets: a channel shows only whether it has them and a hint. */
export const CHANNELS: SettingsResource = {
  path: 'channels',
  noun: 'channel',
  table: 'notification_channels',
  writable: ['kind', 'name', 'target', 'secret', 'digest', 'digest_timezone', 'enabled'],
  select: `t.id, t.kind, t.name,
    CASE WHEN t.kind = 'email' THEN t.target END AS target,
    CASE WHEN t.kind = 'slack-bot' THEN t.target WHEN t.kind = 'slack-webhook' THEN '…' || right(t.target, 4) END AS target_hint,
    t.secret IS NOT NULL AS has_secret, t.digest, t.digest_timezone, t.enabled, t.unsubscribed_at, t.created_at`,
  extraUpdates: (body) => (body.enabled === true ? ['unsubscribed_at = NULL'] : []),
  urlTargetKinds: ['slack-webhook'],
};

export const ROUTES: SettingsResource = {
  path: 'routes',
  noun: 'route',
  table: 'notification_routes',
  writable: ['channel_id', 'event_kinds', 'min_severity'],
  select: 't.id, t.channel_id, c.name AS channel_name, c.kind AS channel_kind, t.event_kinds, t.min_severity, t.created_at',
  from: 'notification_routes t JOIN notification_channels c ON c.id = t.channel_id',
};

export const ALERT_RULES: SettingsResource = {
  path: 'alert-rules',
  noun: 'alert rule',
  table: 'alert_rules',
  writable: ['name', 'kind', 'volume_id', 'bin_upper_bytes', 'threshold', 'window_seconds', 'severity', 'enabled'],
  select: `t.id, t.name, t.kind, t.volume_id, t.bin_upper_bytes::float8 AS bin_upper_bytes, t.threshold, t.window_seconds, t.severity, t.enabled,
    (SELECT count(*)::int FROM alert_incidents i WHERE i.rule_id = t.id AND i.resolved_at IS NULL) AS open_incidents, t.created_at`,
};

export const MUTE_WINDOWS: SettingsResource = {
  path: 'mute-windows',
  noun: 'mute window',
  table: 'notification_mute_windows',
  writable: ['name', 'channel_id', 'timezone', 'days', 'starts', 'ends'],
  casts: { days: 'smallint[]', starts: 'time', ends: 'time' },
  select: `t.id, t.name, t.channel_id, t.timezone, t.days::int[] AS days, to_char(t.starts, 'HH24:MI') AS starts,
    to_char(t.ends, 'HH24:MI') AS ends, t.created_at`,
};
