/**
 * /v1/notifications over HTTP on the real api and PostgreSQL: settings CRUD with zod
 * validation, secrets never returned, permissions, and the paginated delivery log.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';

describe('notification settings and delivery log (HTTP, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenantId: string;
  let readKey: string;
  let writeKey: string;

  async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }

  beforeAll(async () => {
    ({ app, url } = await startApi());
    const tenant = await tenants.create('notifications-http');
    tenantId = tenant.tenant_id;
    readKey = tenant.api_key;
    writeKey = (await tenants.createApiKey(tenantId, 'read-write')).key;
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('creates, lists, changes and deletes channels; never returns a webhook URL or bot token', async () => {
    const email = await call('POST', '/v1/notifications/channels', writeKey, { kind: 'email', name: 'Storage team', target: 'storage@example.com', digest: 'weekly', digest_timezone: 'Europe/Paris' });
    expect(email).toEqual({ status: 201, body: expect.objectContaining({ kind: 'email', target: 'storage@example.com', digest: 'weekly', digest_timezone: 'Europe/Paris', enabled: true, has_secret: false }) });
    const webhook = await call('POST', '/v1/notifications/channels', writeKey, { kind: 'slack-webhook', name: 'Alerts', target: 'https://hooks.slack.com/services/T000/B000/XXXXsecretWXYZ' });
    const bot = await call('POST', '/v1/notifications/channels', writeKey, { kind: 'slack-bot', name: 'Bot', target: 'C0STORAGE', secret: 'xoxb-1111-2222-secrettoken' });
    expect(webhook.body).toMatchObject({ kind: 'slack-webhook', target: null, target_hint: '…WXYZ', has_secret: false });
    expect(bot.body).toMatchObject({ kind: 'slack-bot', target: null, target_hint: 'C0STORAGE', has_secret: true });

    const list = await call('GET', '/v1/notifications/channels', readKey);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Storage team', 'Alerts', 'Bot']);
    expect(JSON.stringify(list.body)).not.toMatch(/XXXXsecret|secrettoken|xoxb/);

    const renamed = await call('PATCH', `/v1/notifications/channels/${email.body.id}`, writeKey, { name: 'Storage on-call', digest: 'immediate' });
    expect(renamed.body).toMatchObject({ name: 'Storage on-call', digest: 'immediate' });
    expect((await call('DELETE', `/v1/notifications/channels/${bot.body.id}`, writeKey)).status).toBe(204);
    expect((await call('DELETE', `/v1/notifications/channels/${bot.body.id}`, writeKey)).status).toBe(404);
  });

  it('answers 400 naming the problem for invalid bodies, and 403 for a read key that writes', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'email', name: 'x', target: 'not-an-address' }, /target/],
      [{ kind: 'slack-bot', name: 'x', target: 'C0X', secret: 'password' }, /secret.*xoxb/],
      [{ kind: 'email', name: 'x', target: 'a@example.com', digest_timezone: 'Mars/Olympus' }, /IANA time zone/],
      [{ kind: 'pager', name: 'x', target: 'x' }, /kind/],
      [{ kind: 'email', name: 'x', target: 'a@example.com', surprise: 1 }, /surprise/],
    ];
    for (const [body, message] of cases) {
      const answer = await call('POST', '/v1/notifications/channels', writeKey, body);
      expect({ body, status: answer.status, code: answer.body.code }).toEqual({ body, status: 400, code: 'bad_request' });
      expect(answer.body.message).toMatch(message);
    }
    const rule = await call('POST', '/v1/notifications/alert-rules', writeKey, { name: 'slow', kind: 'latency', threshold: 5000 });
    expect(rule.status).toBe(400);
    expect(rule.body.message).toMatch(/bin_upper_bytes is required for latency rules/);
    const window = await call('POST', '/v1/notifications/mute-windows', writeKey, { name: 'night', timezone: 'Europe/Paris', starts: '25:00', ends: '07:00' });
    expect(window.status).toBe(400);
    expect(window.body.message).toMatch(/HH:MM/);
    const forbidden = await call('POST', '/v1/notifications/channels', readKey, { kind: 'email', name: 'x', target: 'a@example.com' });
    expect(forbidden).toEqual({ status: 403, body: expect.objectContaining({ code: 'forbidden', message: "role 'viewer' does not grant notifications.write" }) });
  });

  it('refuses Slack webhook targets off the trusted origin (SSRF) at creation and on change, with 400 naming why', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1:8080/hooks/x', /https/],
      ['http://169.254.169.254/latest/meta-data/', /https/],
      ['http://[::1]/', /https/],
      ['https://hooks.slack.com@127.0.0.1/services/T0/B0/x', /user name or password/],
      ['https://hooks.slack.com.evil.example/services/T0/B0/x', /hooks\.slack\.com/],
      ['https://2130706433/services/T0/B0/x', /hooks\.slack\.com/],
      ['https://hooks.slack.com:8443/services/T0/B0/x', /hooks\.slack\.com/],
    ];
    for (const [target, reason] of cases) {
      const answer = await call('POST', '/v1/notifications/channels', writeKey, { kind: 'slack-webhook', name: 'ssrf', target });
      expect({ target, status: answer.status, code: answer.body.code }).toEqual({ target, status: 400, code: 'bad_request' });
      expect(answer.body.message).toMatch(reason);
    }
    const channel = await call('POST', '/v1/notifications/channels', writeKey, { kind: 'slack-webhook', name: 'ok', target: 'https://hooks.slack.com/services/T0/B0/okok' });
    expect(channel.status).toBe(201);
    const moved = await call('PATCH', `/v1/notifications/channels/${channel.body.id}`, writeKey, { target: 'http://169.254.169.254/latest/meta-data/' });
    expect(moved).toEqual({ status: 400, body: expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(/target is refused/) }) });
    const { rows } = await tenants.owner.query<{ target: string }>('SELECT target FROM notification_channels WHERE id = $1', [channel.body.id]);
    expect(rows[0]!.target).toBe('https://hooks.slack.com/services/T0/B0/okok');
    expect((await call('DELETE', `/v1/notifications/channels/${channel.body.id}`, writeKey)).status).toBe(204);
  });

  it("routes, alert rules and mute windows round-trip; a route to another tenant's channel is refused", async () => {
    const channel = (await call('POST', '/v1/notifications/channels', writeKey, { kind: 'email', name: 'Routes', target: 'routes@example.com' })).body;
    const route = await call('POST', '/v1/notifications/routes', writeKey, { channel_id: channel.id, event_kinds: ['alert.firing', 'alert.resolved'], min_severity: 'critical' });
    expect(route).toEqual({ status: 201, body: expect.objectContaining({ channel_id: channel.id, channel_name: 'Routes', event_kinds: ['alert.firing', 'alert.resolved'], min_severity: 'critical' }) });
    const other = await tenants.create('notifications-other');
    const { rows } = await tenants.owner.query<{ id: string }>(`INSERT INTO notification_channels (tenant_id, kind, target) VALUES ($1, 'email', 'x@example.com') RETURNING id`, [other.tenant_id]);
    const stolen = await call('POST', '/v1/notifications/routes', writeKey, { channel_id: rows[0]!.id, event_kinds: ['alert.firing'] });
    expect(stolen.status).toBe(400);
    expect(stolen.body.message).toMatch(/names no channel of this tenant/);

    const rule = await call('POST', '/v1/notifications/alert-rules', writeKey, { name: '64 KiB latency', kind: 'latency', bin_upper_bytes: 65_536, threshold: 5000, severity: 'critical' });
    expect(rule.body).toMatchObject({ kind: 'latency', bin_upper_bytes: 65_536, threshold: 5000, window_seconds: 300, severity: 'critical', enabled: true, open_incidents: 0 });
    expect((await call('PATCH', `/v1/notifications/alert-rules/${rule.body.id}`, writeKey, { enabled: false })).body).toMatchObject({ enabled: false });
    const devices = await call('POST', '/v1/notifications/alert-rules', writeKey, { name: 'device errors', kind: 'device_errors', threshold: 0 });
    expect(devices).toMatchObject({ status: 201, body: { kind: 'device_errors', bin_upper_bytes: null, threshold: 0, window_seconds: 300, severity: 'warning' } });

    const window = await call('POST', '/v1/notifications/mute-windows', writeKey, { name: 'Night', channel_id: channel.id, timezone: 'America/New_York', days: [1, 2, 3, 4, 5], starts: '22:00', ends: '07:30' });
    expect(window.body).toMatchObject({ name: 'Night', timezone: 'America/New_York', days: [1, 2, 3, 4, 5], starts: '22:00', ends: '07:30' });
    expect((await call('GET', '/v1/notifications/mute-windows', readKey)).body.data).toHaveLength(1);
    expect((await call('PATCH', `/v1/notifications/mute-windows/${window.body.id}`, writeKey, { ends: '06:00' })).body).toMatchObject({ ends: '06:00' });
  });

  it('pages the delivery log newest first with status, attempts, last error, channel and event', async () => {
    const channel = (await call('POST', '/v1/notifications/channels', writeKey, { kind: 'email', name: 'Log', target: 'log@example.com' })).body;
    for (let i = 0; i < 5; i += 1) {
      await tenants.owner.query(
        `WITH e AS (INSERT INTO outbox (tenant_id, event_kind, payload) VALUES ($1, 'recommendation.created', jsonb_build_object('volume_id', $3::text)) RETURNING id)
         INSERT INTO deliveries (outbox_id, channel_id, tenant_id, idempotency_key, status, attempts, last_error)
         SELECT id, $2::uuid, $1::uuid, id || '.' || $2::text, $4::text, $5::int, $6::text FROM e`,
        [tenantId, channel.id, `feed000${i}`, i === 4 ? 'dead' : 'sent', i === 4 ? 8 : 1, i === 4 ? 'SMTP: 550 mailbox unavailable' : null],
      );
    }
    const first = await call('GET', '/v1/notifications/deliveries?limit=2', readKey);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0]).toMatchObject({
      event_kind: 'recommendation.created', event_subject: 'feed0004', channel_id: channel.id, channel_kind: 'email', channel_name: 'Log',
      status: 'dead', attempts: 8, last_error: 'SMTP: 550 mailbox unavailable', next_attempt_at: null,
    });
    const second = await call('GET', `/v1/notifications/deliveries?limit=2&cursor=${first.body.next_cursor}`, readKey);
    const third = await call('GET', `/v1/notifications/deliveries?limit=2&cursor=${second.body.next_cursor}`, readKey);
    const subjects = [...first.body.data, ...second.body.data, ...third.body.data].map((d: { event_subject: string }) => d.event_subject);
    expect(subjects).toEqual(['feed0004', 'feed0003', 'feed0002', 'feed0001', 'feed0000']);
    expect(third.body.next_cursor).toBeNull();
    const dead = await call('GET', '/v1/notifications/deliveries?status=dead', readKey);
    expect(dead.body.data.map((d: { event_subject: string }) => d.event_subject)).toEqual(['feed0004']);
    const { rows } = await tenants.owner.query<{ id: string }>(`SELECT id::text FROM deliveries WHERE tenant_id = $1 AND status = 'dead'`, [tenantId]);
    await tenants.owner.query(
      `INSERT INTO delivery_attempts (delivery_id, tenant_id, attempt, outcome, error) VALUES ($1, $2, 1, 'retry', 'SMTP: 451 busy'), ($1, $2, 2, 'dead', 'SMTP: 550 mailbox unavailable')`,
      [rows[0]!.id, tenantId],
    );
    const attempts = await call('GET', `/v1/notifications/deliveries/${rows[0]!.id}/attempts`, readKey);
    expect(attempts.body.data.map((a: { attempt: number; outcome: string; error: string }) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, 'retry', 'SMTP: 451 busy'],
      [2, 'dead', 'SMTP: 550 mailbox unavailable'],
    ]);
    expect((await call('GET', '/v1/notifications/deliveries/999999999999/attempts', readKey)).status).toBe(404);
    const bad = await call('GET', '/v1/notifications/deliveries?cursor=bm9wZQ', readKey);
    expect(bad).toEqual({ status: 400, body: expect.objectContaining({ code: 'bad_request', message: 'cursor is not a next_cursor of this API' }) });
  });
});
