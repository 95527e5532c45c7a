import type { Queryable } from '@tierwise/common';

/** A pending delivery claimed for sending, with its event and channel. */
export interface DueDelivery {
  outbox_id: string;
  channel_id: string;
  tenant_id: string;
  idempotency_key: string;
  /** Attempts made before this one. */
  attempts: number;
  event_kind: string;
  payload: unknown;
  channel_kind: 'email' | 'slack-webhook';
  target: string;
  enabled: boolean;
}

/** What became of one attempt. */
export type AttemptOutcome =
  | { outcome: 'sent' }
  | { outcome: 'retry'; error: string; delaySeconds: number }
  | { outcome: 'dead'; error: string };

/**
 * Fans out up to `limit` events not yet fanned out: one `pending` delivery per enabled channel
 * of the event's tenant whose `event_kinds` lists the event's kind, with idempotency key
 * `<outbox id>.<channel id>`; marks the events fanned out. Events are claimed with
 * FOR UPDATE SKIP LOCKED, so concurrent notifiers never fan out one event twice (and the
 * deliveries' primary key would refuse it anyway).
 *
 * @returns the number of events fanned out.
 */
export async function fanOutEvents(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `WITH events AS (
       SELECT id, tenant_id, event_kind FROM outbox
        WHERE fanned_out_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
     ), created AS (
       INSERT INTO deliveries (outbox_id, channel_id, tenant_id, idempotency_key)
       SELECT e.id, c.id, e.tenant_id, e.id || '.' || c.id
         FROM events e
         JOIN notification_channels c
           ON c.tenant_id = e.tenant_id AND c.enabled AND e.event_kind = ANY (c.event_kinds)
       ON CONFLICT DO NOTHING
       RETURNING 1
     )
     UPDATE outbox SET fanned_out_at = now() WHERE id IN (SELECT id FROM events)`,
    [limit],
  );
  return rowCount ?? 0;
}

/**
 * Claims the pending delivery due first (next_attempt_at ≤ now), locking its row
 * (FOR UPDATE SKIP LOCKED) until the caller's transaction ends.
 *
 * @returns the delivery, or undefined when none is due.
 */
export async function claimDueDelivery(db: Queryable): Promise<DueDelivery | undefined> {
  const { rows } = await db.query<DueDelivery>(
    `SELECT d.outbox_id::text, d.channel_id, d.tenant_id, d.idempotency_key, d.attempts,
            o.event_kind, o.payload, c.kind AS channel_kind, c.target, c.enabled
       FROM deliveries d
       JOIN outbox o ON o.id = d.outbox_id
       JOIN notification_channels c ON c.id = d.channel_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= now()
      ORDER BY d.next_attempt_at, d.outbox_id
      LIMIT 1
      FOR UPDATE OF d SKIP LOCKED`,
  );
  return rows[0];
}

/**
 * Records an attempt on a claimed delivery: the delivery's new status, attempts, next attempt
 * time and last error, plus one row in the delivery log (delivery_attempts).
 */
export async function recordAttempt(db: Queryable, delivery: DueDelivery, result: AttemptOutcome): Promise<void> {
  const attempt = delivery.attempts + 1;
  const error = result.outcome === 'sent' ? null : result.error;
  await db.query(
    `UPDATE deliveries
        SET attempts = $3,
            status = CASE $4::text WHEN 'retry' THEN 'pending' ELSE $4::text END,
            next_attempt_at = CASE $4::text WHEN 'retry' THEN now() + make_interval(secs => $5) ELSE next_attempt_at END,
            last_error = coalesce($6, last_error),
            sent_at = CASE $4::text WHEN 'sent' THEN now() END
      WHERE outbox_id = $1 AND channel_id = $2`,
    [delivery.outbox_id, delivery.channel_id, attempt, result.outcome, result.outcome === 'retry' ? result.delaySeconds : 0, error],
  );
  await db.query(
    `INSERT INTO delivery_attempts (outbox_id, channel_id, tenant_id, attempt, outcome, error)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [delivery.outbox_id, delivery.channel_id, delivery.tenant_id, attempt, result.outcome, error],
  );
}
