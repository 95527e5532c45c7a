/**
 * Arranges one of each notification settings row for a tenant (channel, route, alert rule,
 * mute window) and one delivery of its newest outbox event, as tierwise_owner; `label` is
 * written as each row's name so a test can spot the tenant's rows in an answer.
 */
import type { Queryable } from '@tierwise/common';

/** Ids of the rows {@link insertNotificationSettings} wrote. */
export interface NotificationRows {
  channelId: string;
  routeId: string;
  ruleId: string;
  windowId: string;
  deliveryId: string;
}

export async function insertNotificationSettings(db: Queryable, tenantId: string, label: string, volumeId: string): Promise<NotificationRows> {
  const one = async (sql: string, params: unknown[]): Promise<string> => (await db.query<{ id: string }>(sql, params)).rows[0]!.id;
  const channelId = await one(`INSERT INTO notification_channels (tenant_id, kind, name, target) VALUES ($1, 'email', $2, 'ops@example.com') RETURNING id`, [tenantId, label]);
  const routeId = await one(`INSERT INTO notification_routes (tenant_id, channel_id, event_kinds) VALUES ($1, $2, '{recommendation.created}') RETURNING id`, [tenantId, channelId]);
  const ruleId = await one(
    `INSERT INTO alert_rules (tenant_id, name, kind, volume_id, threshold) VALUES ($1, $2, 'hit_ratio_drop', $3, 0.2) RETURNING id`,
    [tenantId, label, volumeId],
  );
  const windowId = await one(
    `INSERT INTO notification_mute_windows (tenant_id, name, channel_id, timezone, starts, ends) VALUES ($1, $2, $3, 'Europe/Paris', '22:00', '07:00') RETURNING id`,
    [tenantId, label, channelId],
  );
  const deliveryId = await one(
    `INSERT INTO deliveries (outbox_id, channel_id, tenant_id, idempotency_key, status, attempts, last_error)
     SELECT id, $2::uuid, tenant_id, id || '.' || $2::text, 'dead', 1, 'SMTP: 550 no such user' FROM outbox WHERE tenant_id = $1 ORDER BY id DESC LIMIT 1
     RETURNING id::text`,
    [tenantId, channelId],
  );
  await db.query(`INSERT INTO delivery_attempts (delivery_id, tenant_id, attempt, outcome, error) VALUES ($1, $2, 1, 'dead', $3)`, [
    deliveryId,
    tenantId,
    `SMTP: 550 no mailbox for ${label}`,
  ]);
  return { channelId, routeId, ruleId, windowId, deliveryId };
}
