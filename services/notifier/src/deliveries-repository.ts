import type { Queryable } from '@tierwise/common';

/** A channel as the notifier sends to it (notification_channels). */
export interface ChannelRow {
  channel_id: string;
  channel_kind: 'email' | 'slack-webhook' | 'slack-bot';
  /** Email address, webhook URL or Slack channel. */
  target: string;
  /** Bot token of slack-bot channels. */
  secret: string | null;
  /** false when disabled or unsubscribed since the event was routed. */
  active: boolean;
}

/** A pending delivery claimed for sending, with its event and (unless an account e-mail) channel. */
export interface DueDelivery extends Partial<ChannelRow> {
  id: string;
  outbox_id: string;
  tenant_id: string;
  idempotency_key: string;
  /** Attempts made before this one. */
  attempts: number;
  event_kind: string;
  severity: string;
  payload: unknown;
  /** End of the mute window covering now, or null. */
  muted_until: Date | null;
}

/** What became of one attempt. */
export type AttemptOutcome =
  | { outcome: 'sent' }
  | { outcome: 'retry'; error: string; delaySeconds: number }
  | { outcome: 'dead'; error: string };

/**
 * Fans out up to `limit` events not yet fanned out, oldest first, and marks them fanned out:
 * - a tenant event (recommendation.*, alert.*) gets one delivery per active channel of its
 *   tenant with a route listing its kind at or below its severity; `pending` for immediate
 *   channels, `held` for e-mail channels with a daily or weekly digest;
 * - an account.email event gets one `pending` delivery without a channel (sent to payload.to).
 * Idempotency key `<outbox id>.<channel id>` or `<outbox id>.account`. Events are claimed
 * FOR UPDATE SKIP LOCKED, so concurrent notifiers never fan out one event twice (and the
 * deliveries_once constraint would refuse it anyway).
 *
 * @returns the number of events fanned out.
 */
export async function fanOutEvents(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `WITH events AS (
       SELECT id, tenant_id, event_kind, severity FROM outbox
        WHERE fanned_out_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), routed AS (
       SELECT DISTINCT e.id, e.tenant_id, c.id AS channel_id, c.digest
         FROM events e
         JOIN notification_routes r
           ON r.tenant_id = e.tenant_id AND e.event_kind = ANY (r.event_kinds)
          AND severity_rank(e.severity) >= severity_rank(r.min_severity)
         JOIN notification_channels c ON c.tenant_id = r.tenant_id AND c.id = r.channel_id
        WHERE c.enabled AND c.unsubscribed_at IS NULL
     ), created AS (
       INSERT INTO deliveries (outbox_id, channel_id, tenant_id, idempotency_key, status)
       SELECT id, channel_id, tenant_id, id || '.' || channel_id, CASE digest WHEN 'immediate' THEN 'pending' ELSE 'held' END
         FROM routed
       UNION ALL
       SELECT id, NULL, tenant_id, id || '.account', 'pending' FROM events WHERE event_kind = 'account.email'
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     UPDATE outbox SET fanned_out_at = now() WHERE id IN (SELECT id FROM events)`,
    [limit],
  );
  return rowCount ?? 0;
}

/** Columns of a channel as {@link ChannelRow}, for a query joining notification_channels as `c`. */
export const CHANNEL_COLUMNS = `c.id AS channel_id, c.kind AS channel_kind, c.target, c.secret,
  (c.enabled AND c.unsubscribed_at IS NULL) AS active`;

/**
 * Claims the pending delivery due first (next_attempt_at ≤ now), locking its row
 * (FOR UPDATE SKIP LOCKED) until the caller's transaction ends.
 *
 * @returns the delivery, or undefined when none is due.
 */
export async function claimDueDelivery(db: Queryable): Promise<DueDelivery | undefined> {
  const { rows } = await db.query<DueDelivery>(
    `SELECT d.id::text, d.outbox_id::text, d.tenant_id, d.idempotency_key, d.attempts,
            o.event_kind, o.severity, o.payload, ${CHANNEL_COLUMNS},
            CASE WHEN d.channel_id IS NOT NULL THEN notification_muted_until(d.tenant_id, d.channel_id, now()) END AS muted_until
       FROM deliveries d
       JOIN outbox o ON o.id = d.outbox_id
       LEFT JOIN notification_channels c ON c.id = d.channel_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      ORDER BY d.next_attempt_at, d.id
      LIMIT 1
      FOR UPDATE OF d SKIP LOCKED`,
  );
  return rows[0];
}

/** Moves a claimed delivery to `until` (the end of its channel's mute window); no attempt is counted. */
export async function deferDelivery(db: Queryable, deliveryId: string, until: Date): Promise<void> {
  await db.query('UPDATE deliveries SET next_attempt_at = $2 WHERE id = $1', [deliveryId, until]);
}

/**
 * Records an attempt on claimed deliveries (one, or every delivery of a digest): the new
 * status, attempts, next attempt time, last error and digest key, plus one row per delivery in
 * the delivery log (delivery_attempts).
 *
 * @param deliveries ids and attempts made before this one.
 * @param digestKey the idempotency key of the digest e-mail that carried them, if any.
 */
export async function recordAttempt(
  db: Queryable,
  deliveries: ReadonlyArray<{ id: string; tenant_id: string; attempts: number }>,
  result: AttemptOutcome,
  digestKey: string | null = null,
): Promise<void> {
  const error = result.outcome === 'sent' ? null : result.error;
  const ids = deliveries.map((d) => d.id);
  await db.query(
    `UPDATE deliveries
        SET attempts = attempts + 1,
            status = CASE $2::text WHEN 'retry' THEN status WHEN 'dead' THEN 'dead' ELSE 'sent' END,
            next_attempt_at = CASE $2::text WHEN 'retry' THEN now() + make_interval(secs => $3) ELSE next_attempt_at END,
            last_error = coalesce($4, last_error),
            sent_at = CASE $2::text WHEN 'sent' THEN now() END,
            digest_key = coalesce($5, digest_key)
      WHERE id = ANY ($1::bigint[])`,
    [ids, result.outcome, result.outcome === 'retry' ? result.delaySeconds : 0, error, result.outcome === 'sent' ? digestKey : null],
  );
  await db.query(
    `INSERT INTO delivery_attempts (delivery_id, tenant_id, attempt, outcome, error)
     SELECT d.id, d.tenant_id, d.attempts, $2, $3 FROM deliveries d WHERE d.id = ANY ($1::bigint[])`,
    [ids, result.outcome, error],
  );
}

/** An e-mail channel whose digest is due, locked for the caller's transaction. */
export interface DueDigest extends ChannelRow {
  tenant_id: string;
  digest: 'daily' | 'weekly';
  /** Start of the current period in the channel's time zone (YYYY-MM-DD): the digest holds what came before. */
  period_end: string;
  /** First day of the period that ended (YYYY-MM-DD): yesterday for daily, last Monday week for weekly. */
  period_label: string;
}

/** A held delivery of a digest, with its event. */
export interface HeldDelivery {
  id: string;
  tenant_id: string;
  attempts: number;
  event_kind: string;
  severity: string;
  payload: unknown;
}

/** SQL of the start of channel `c`'s current digest period, as a timestamptz. */
const PERIOD_START = `(date_trunc(CASE c.digest WHEN 'daily' THEN 'day' ELSE 'week' END, now() AT TIME ZONE c.digest_timezone)
                       AT TIME ZONE c.digest_timezone)`;

/**
 * Claims one digest channel that has held deliveries from before its current period (a day
 * from midnight, a week from Monday midnight, in digest_timezone) whose retry time has come,
 * with those deliveries, oldest first. The channel row and the deliveries are locked
 * (FOR UPDATE SKIP LOCKED) until the caller's transaction ends.
 *
 * @returns the channel and its held deliveries, or undefined when no digest is due.
 */
export async function claimDueDigest(db: Queryable): Promise<{ channel: DueDigest; held: HeldDelivery[] } | undefined> {
  const { rows } = await db.query<DueDigest>(
    `SELECT ${CHANNEL_COLUMNS}, c.tenant_id, c.digest,
            to_char(p.local_start, 'YYYY-MM-DD') AS period_end,
            to_char(p.local_start - CASE c.digest WHEN 'daily' THEN interval '1 day' ELSE interval '1 week' END, 'YYYY-MM-DD') AS period_label
       FROM notification_channels c
      CROSS JOIN LATERAL (SELECT date_trunc(CASE c.digest WHEN 'daily' THEN 'day' ELSE 'week' END, now() AT TIME ZONE c.digest_timezone) AS local_start) p
      WHERE c.digest <> 'immediate'
        AND EXISTS (SELECT 1 FROM deliveries d
                     WHERE d.channel_id = c.id AND d.status = 'held' AND d.created_at < ${PERIOD_START})
        AND NOT EXISTS (SELECT 1 FROM deliveries d
                         WHERE d.channel_id = c.id AND d.status = 'held' AND d.next_attempt_at > now())
      LIMIT 1
      FOR UPDATE OF c SKIP LOCKED`,
  );
  const channel = rows[0];
  if (!channel) return undefined;
  const held = await db.query<HeldDelivery>(
    `SELECT d.id::text, d.tenant_id, d.attempts, o.event_kind, o.severity, o.payload
       FROM deliveries d JOIN outbox o ON o.id = d.outbox_id
       JOIN notification_channels c ON c.id = d.channel_id
      WHERE d.channel_id = $1 AND d.status = 'held' AND d.created_at < ${PERIOD_START}
      ORDER BY d.outbox_id
      FOR UPDATE OF d`,
    [channel.channel_id],
  );
  return { channel, held: held.rows };
}
