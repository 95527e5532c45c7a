import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './support/harness.js';

/**
 * Routing per tenant (event kinds and a severity floor per route) and timezone-aware mute
 * windows, on the real database: deliveries due inside a window wait until it ends.
 */
const h = new Harness();

beforeAll(() => h.start());
afterEach(() => h.afterEach());
afterAll(() => h.stop());

async function alertEvent(tenantId: string, kind: 'alert.firing' | 'alert.resolved', severity: string, subject: string): Promise<void> {
  await h.tenants.owner.query(
    `INSERT INTO outbox (tenant_id, event_kind, severity, payload) VALUES ($1, $2, $3, $4)`,
    [tenantId, kind, severity, {
      incident_id: 1, rule_id: '00000000-0000-4000-8000-000000000001', rule_name: 'backlog', rule_kind: 'destage_backlog', subject,
      bin_upper_bytes: null, value: 3 * 2 ** 30, threshold: 2 ** 30, opened_at: '2026-11-21T01:00:00Z', resolved_at: kind === 'alert.resolved' ? '2026-11-21T01:10:00Z' : null,
    }],
  );
}

/** notification_muted_until(tenant, channel, at) as an ISO string, or null. */
async function mutedUntil(tenantId: string, channelId: string, at: string): Promise<string | null> {
  const { rows } = await h.tenants.owner.query<{ until: Date | null }>('SELECT notification_muted_until($1, $2, $3) AS until', [tenantId, channelId, at]);
  return rows[0]!.until?.toISOString() ?? null;
}

describe('routing', () => {
  it('sends each event kind only where a route lists it, at or above the route severity', async () => {
    const tenant = await h.createTenant('routes');
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/recommendations` }, { event_kinds: ['recommendation.created'] });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/critical` }, { event_kinds: ['alert.firing', 'alert.resolved'], min_severity: 'critical' });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/unrouted` }, null);
    await h.recommend(tenant, 'ffff0001');
    await alertEvent(tenant, 'alert.firing', 'warning', 'ffff0002');
    await alertEvent(tenant, 'alert.firing', 'critical', 'ffff0003');
    await alertEvent(tenant, 'alert.resolved', 'critical', 'ffff0003');
    await h.drain(h.notifier(), [tenant]);

    const seen = h.slack.accepted.map((r) => `${r.path} ${(r.body as { text: string }).text}`).sort();
    expect(seen).toEqual([
      '/hooks/critical Critical: Destage backlog of volume ffff0003 above threshold',
      '/hooks/critical Resolved: Destage backlog of volume ffff0003 above threshold',
      '/hooks/recommendations New recommendation for volume ffff0001: 1.5 GiB NVMe write-back',
    ]);
    const firing = h.slack.accepted.find((r) => (r.body as { text: string }).text.startsWith('Critical'))!.body as { blocks: Array<Record<string, any>> };
    expect(firing.blocks[1]!.fields).toEqual(expect.arrayContaining([
      { type: 'mrkdwn', text: '*Value*\n3 GiB' },
      { type: 'mrkdwn', text: '*Threshold*\n1 GiB' },
    ]));
    expect(firing.blocks[2]!.elements[0]).toMatchObject({ url: 'http://127.0.0.1:3999/volumes/ffff0003', action_id: 'open_alert_subject' });
  });
});

describe('mute windows', () => {
  it('computes the end of the window covering an instant in its own time zone, across midnight and DST', async () => {
    const tenant = await h.createTenant('mute-maths');
    const channel = await h.addChannel(tenant, { kind: 'email', target: 'night@example.com' });
    // 22:00-07:00 in New York on weekdays (Mon-Fri starts), only this channel.
    await h.tenants.owner.query(
      `INSERT INTO notification_mute_windows (tenant_id, channel_id, timezone, days, starts, ends) VALUES ($1, $2, 'America/New_York', '{1,2,3,4,5}', '22:00', '07:00')`,
      [tenant, channel],
    );
    // Tue 2026-03-03 23:30 EST (04:30Z Wed) → until Wed 07:00 EST = 12:00Z.
    expect(await mutedUntil(tenant, channel, '2026-03-04T04:30:00Z')).toBe('2026-03-04T12:00:00.000Z');
    // Wed 06:59 EST → same end; 07:00 EST → not muted.
    expect(await mutedUntil(tenant, channel, '2026-03-04T11:59:00Z')).toBe('2026-03-04T12:00:00.000Z');
    expect(await mutedUntil(tenant, channel, '2026-03-04T12:00:00Z')).toBeNull();
    // Sat 23:00 EST: Saturday is not a start day → not muted; Sun 02:00 after Sat start → not muted.
    expect(await mutedUntil(tenant, channel, '2026-03-08T04:00:00Z')).toBeNull();
    // Fri 2026-03-06 22:30 EST → the window started Friday ends Sat 07:00 EST = 12:00Z.
    expect(await mutedUntil(tenant, channel, '2026-03-07T03:30:00Z')).toBe('2026-03-07T12:00:00.000Z');
    // DST: Mon 2026-03-09 22:30 EDT (02:30Z Tue) → Tue 07:00 EDT = 11:00Z (not 12:00Z).
    expect(await mutedUntil(tenant, channel, '2026-03-10T02:30:00Z')).toBe('2026-03-10T11:00:00.000Z');
    // Another channel of the tenant is not muted by this window.
    const other = await h.addChannel(tenant, { kind: 'email', target: 'day@example.com' });
    expect(await mutedUntil(tenant, other, '2026-03-04T04:30:00Z')).toBeNull();
  });

  it('holds a delivery due inside a window until the window ends, then sends it once', async () => {
    const tenant = await h.createTenant('mute');
    const muted = await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/muted` });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/open` });
    // A window covering now in Asia/Kolkata (UTC+05:30), from an hour ago to two hours on.
    const { rows } = await h.tenants.owner.query<{ starts: string; ends: string; until: Date }>(
      `SELECT to_char(l - interval '1 hour', 'HH24:MI') AS starts, to_char(l + interval '2 hours', 'HH24:MI') AS ends,
              (date_trunc('minute', l + interval '2 hours') AT TIME ZONE 'Asia/Kolkata') AS until
         FROM (SELECT now() AT TIME ZONE 'Asia/Kolkata' AS l) x`,
    );
    const window = rows[0]!;
    await h.tenants.owner.query(
      `INSERT INTO notification_mute_windows (tenant_id, channel_id, timezone, starts, ends) VALUES ($1, $2, 'Asia/Kolkata', $3, $4)`,
      [tenant, muted, window.starts, window.ends],
    );
    await h.recommend(tenant, 'abab0001');
    const notifier = h.notifier();
    await h.drain(notifier, [tenant]);

    expect(h.slack.accepted.map((r) => r.path)).toEqual(['/hooks/open']);
    const held = (await h.deliveries(tenant)).find((d) => d.status === 'pending')!;
    expect(held).toMatchObject({ attempts: 0 });
    expect(held.next_attempt_at.toISOString()).toBe(window.until.toISOString());

    // The window ends (moved into the past): the delivery goes out, once.
    await h.tenants.owner.query(`UPDATE notification_mute_windows SET starts = $2::time - interval '2 hours', ends = $2::time - interval '1 hour' WHERE tenant_id = $1`, [tenant, window.starts]);
    await h.tenants.owner.query('UPDATE deliveries SET next_attempt_at = now() WHERE id = $1', [held.id]);
    await h.drain(notifier, [tenant]);
    await notifier.pollOnce();
    expect(h.slack.accepted.map((r) => r.path).sort()).toEqual(['/hooks/muted', '/hooks/open']);
    expect((await h.deliveries(tenant)).map((d) => [d.status, d.attempts])).toEqual([
      ['sent', 1],
      ['sent', 1],
    ]);
  });
});
