import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_ID_DOMAIN } from '../src/transports/email-transport.js';
import pg from 'pg';
import { API_URL, Harness, RETRY, WEB_URL } from './support/harness.js';
import { freePort, NOTIFIER_MAIN, ServiceProcess } from './support/processes.js';
import { POST_MESSAGE_PATH } from './support/slack-receiver.js';

/**
 * Delivery on the real database of the test profile, a real SMTP server and a Slack-like
 * receiver on loopback: exactly once through failures, resume after a stop, dead letter,
 * tenant isolation and account e-mails.
 */
const h = new Harness();
const BOT_TOKEN = 'xoxb-1234-5678-abcdefgh';

beforeAll(() => h.start());
afterEach(() => h.afterEach());
afterAll(() => h.stop());

type Blocks = Array<Record<string, any>>;

describe('delivery', () => {
  it("writes one outbox event per new or resized recommendation, in the writer's transaction", async () => {
    const tenant = await h.createTenant('outbox');
    await h.recommend(tenant, 'aaaa0001');
    await h.recommend(tenant, 'aaaa0001'); // same size: no event
    await h.recommend(tenant, 'aaaa0001', 2_147_483_648);
    const client = await h.jobs.connect();
    try {
      await client.query('BEGIN');
      await h.recommend(tenant, 'aaaa0002', 1_610_612_736, client);
      await client.query('ROLLBACK'); // the recommendation and its event go together
    } finally {
      client.release();
    }
    const { rows } = await h.tenants.owner.query(
      `SELECT event_kind, severity, payload->>'volume_id' AS volume_id, (payload->>'tier_bytes')::bigint AS tier_bytes
         FROM outbox WHERE tenant_id = $1 ORDER BY id`,
      [tenant],
    );
    expect(rows).toEqual([
      { event_kind: 'recommendation.created', severity: 'info', volume_id: 'aaaa0001', tier_bytes: '1610612736' },
      { event_kind: 'recommendation.updated', severity: 'info', volume_id: 'aaaa0001', tier_bytes: '2147483648' },
    ]);
  });

  it('delivers exactly one email, one webhook and one chat.postMessage message although each fails twice first', async () => {
    const tenant = await h.createTenant('deliver');
    await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/services/T1/B1/x` });
    await h.addChannel(tenant, { kind: 'slack-bot', target: 'C0STORAGE', secret: BOT_TOKEN });
    h.slack.tokens.add(BOT_TOKEN);
    h.slack.channels.add('C0STORAGE');
    h.smtp.rejectNext = 2;
    const webhook = '/services/T1/B1/x';
    h.slack.script = [
      { path: webhook, status: 500, body: 'rollup_error' },
      { path: webhook, status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } },
      { path: POST_MESSAGE_PATH, status: 200, body: JSON.stringify({ ok: false, error: 'internal_error' }) },
      { path: POST_MESSAGE_PATH, status: 429, body: JSON.stringify({ ok: false, error: 'ratelimited' }), headers: { 'retry-after': '1' } },
    ];
    await h.recommend(tenant, 'bbbb0001');

    await h.drain(h.notifier(), [tenant]);

    expect(h.smtp.attempts).toBe(3);
    expect(h.smtp.mails).toHaveLength(1);
    const rows = await h.deliveries(tenant);
    expect(rows.map((d) => [d.kind, d.status, d.attempts])).toEqual([
      ['email', 'sent', 3],
      ['slack-bot', 'sent', 3],
      ['slack-webhook', 'sent', 3],
    ]);
    const mail = h.smtp.mails[0]!;
    expect(mail.messageId).toBe(`<${rows[0]!.idempotency_key}@${MESSAGE_ID_DOMAIN}>`);
    expect(mail.subject).toBe('[Tierwise] New recommendation for volume bbbb0001: 1.5 GiB NVMe write-back');
    expect(mail.envelopeTo).toEqual(['ops@example.com']);

    expect(h.slack.requests).toHaveLength(6);
    for (const path of [POST_MESSAGE_PATH, webhook]) {
      const calls = h.slack.requests.filter((r) => r.path === path);
      expect(calls).toHaveLength(3);
      // Retry-After: 1 is honoured after the 429 (the third call is the one after it).
      expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(950);
    }
    expect(h.slack.accepted.map((r) => r.path).sort()).toEqual(['/api/chat.postMessage', '/services/T1/B1/x']);
    for (const request of h.slack.accepted) {
      const body = request.body as { text: string; blocks: Blocks; channel?: string };
      expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
      expect(body.blocks[0]!.text.text).toBe('New recommendation for volume bbbb0001: 1.5 GiB NVMe write-back');
      expect(body.blocks[1]!.fields).toContainEqual({ type: 'mrkdwn', text: '*Cache tier size*\n1.5 GiB' });
      expect(body.blocks[2]!.elements[0]).toMatchObject({ type: 'button', url: `${WEB_URL}/volumes/bbbb0001`, action_id: 'open_recommendation' });
    }
    const bot = h.slack.accepted.find((r) => r.path === POST_MESSAGE_PATH)!;
    expect(bot.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect((bot.body as { channel: string }).channel).toBe('C0STORAGE');

    const log = await h.tenants.owner.query('SELECT outcome, count(*)::int AS n FROM delivery_attempts WHERE tenant_id = $1 GROUP BY outcome ORDER BY outcome', [tenant]);
    expect(log.rows).toEqual([{ outcome: 'retry', n: 6 }, { outcome: 'sent', n: 3 }]);
  });

  it('resumes after a stop without losing or repeating a message', async () => {
    const tenant = await h.createTenant('resume');
    await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/services/T1/B2/y` });
    for (const volume of ['cccc0001', 'cccc0002', 'cccc0003']) await h.recommend(tenant, volume);

    // First notifier: fans out, then is stopped while a Slack message is in flight.
    const first = h.notifier();
    expect(await first.fanOut()).toBeGreaterThanOrEqual(3);
    expect(await h.deliveries(tenant)).toHaveLength(6);
    h.slack.delayMs = 300;
    first.start();
    await expect.poll(() => h.slack.requests.length, { timeout: 5000, interval: 10 }).toBeGreaterThan(0);
    await first.stop();
    const pendingAfterStop = (await h.deliveries(tenant)).filter((d) => d.status === 'pending').length;
    expect(pendingAfterStop).toBeGreaterThan(0);
    h.slack.delayMs = 0;

    // Two notifiers resume at once: row locks keep them from sending a delivery twice.
    await Promise.all([h.drain(h.notifier(), [tenant]), h.drain(h.notifier(), [tenant])]);

    const messageIds = h.smtp.mails.map((m) => m.messageId);
    expect(messageIds).toHaveLength(3);
    expect(new Set(messageIds).size).toBe(3);
    const slackVolumes = h.slack.accepted.map((r) => (r.body as { blocks: Blocks }).blocks[2]!.elements[0].url);
    expect(slackVolumes.sort()).toEqual(['cccc0001', 'cccc0002', 'cccc0003'].map((v) => `${WEB_URL}/volumes/${v}`));
    expect((await h.deliveries(tenant)).every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
  });

  it('resumes after kill -9 mid-send (dist/main.js): every event arrives, a resend carries the same Message-ID', async () => {
    const tenant = await h.createTenant('kill9');
    await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' });
    for (const volume of ['c9c90001', 'c9c90002', 'c9c90003']) await h.recommend(tenant, volume);
    const start = async (): Promise<ServiceProcess> => {
      const port = await freePort();
      return ServiceProcess.start(
        NOTIFIER_MAIN,
        { TIERWISE_SMTP_URL: h.smtpUrl, TIERWISE_WEB_URL: WEB_URL, TIERWISE_API_URL: API_URL, TIERWISE_NOTIFIER_PORT: String(port), TIERWISE_ALERT_INTERVAL_SECONDS: '3600' },
        `http://127.0.0.1:${port}/healthz`,
      );
    };

    // The SMTP server holds its answer to the end of DATA: the process dies with a message on the wire.
    h.smtp.delayMs = 2000;
    const first = await start();
    await expect.poll(() => h.smtp.attempts, { timeout: 10_000, interval: 10 }).toBeGreaterThan(0);
    await first.stop('SIGKILL');
    const afterKill = await h.deliveries(tenant);
    expect(afterKill.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true); // the attempt's transaction died with it
    await new Promise((resolve) => setTimeout(resolve, 2100)); // the server accepts the orphaned message anyway
    h.smtp.delayMs = 0;

    const second = await start();
    try {
      await expect
        .poll(async () => (await h.deliveries(tenant)).filter((d) => d.status === 'sent').length, { timeout: 15_000, interval: 50 })
        .toBe(3);
    } finally {
      await second.stop();
    }
    const keys = (await h.deliveries(tenant)).map((d) => `<${d.idempotency_key}@${MESSAGE_ID_DOMAIN}>`).sort();
    const received = h.smtp.mails.map((m) => m.messageId!);
    expect([...new Set(received)].sort()).toEqual(keys); // none lost; a receiver deduplicating on Message-ID keeps 3
    expect(received.length).toBeLessThanOrEqual(4); // only the message in flight at the kill may come twice
    expect((await h.deliveries(tenant)).map((d) => d.attempts)).toEqual([1, 1, 1]);
  });

  it('puts a delivery in the dead letter after maxAttempts failures, or at once on a permanent error', async () => {
    const tenant = await h.createTenant('dead');
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/services/T1/B3/down` });
    h.slack.always = { status: 503, body: 'service unavailable' };
    await h.recommend(tenant, 'dddd0001');
    await h.drain(h.notifier(), [tenant]);
    expect(await h.deliveries(tenant)).toEqual([
      expect.objectContaining({ status: 'dead', attempts: RETRY.maxAttempts, last_error: 'http_503' }),
    ]);
    expect(h.slack.requests).toHaveLength(RETRY.maxAttempts);

    const gone = await h.createTenant('gone');
    await h.addChannel(gone, { kind: 'slack-webhook', target: `${h.slackUrl}/services/T1/B4/gone` });
    h.slack.always = { status: 404, body: 'no_service' };
    await h.recommend(gone, 'dddd0002');
    await h.drain(h.notifier(), [gone]);
    expect(await h.deliveries(gone)).toEqual([expect.objectContaining({ status: 'dead', attempts: 1, last_error: 'http_404' })]);
  });

  it("sends Slack's channel_not_found and invalid_auth answers to the dead letter without retrying", async () => {
    const tenant = await h.createTenant('bot-errors');
    h.slack.tokens.add(BOT_TOKEN);
    h.slack.channels.add('C0KNOWN');
    await h.addChannel(tenant, { kind: 'slack-bot', target: 'C0UNKNOWN', secret: BOT_TOKEN });
    await h.addChannel(tenant, { kind: 'slack-bot', target: 'C0KNOWN', secret: 'xoxb-revoked-0000' });
    await h.recommend(tenant, 'dddd0003');
    await h.drain(h.notifier(), [tenant]);
    const rows = await h.deliveries(tenant);
    expect(rows.map((d) => [d.status, d.attempts, d.last_error]).sort()).toEqual([
      ['dead', 1, 'Slack chat.postMessage: channel_not_found'],
      ['dead', 1, 'Slack chat.postMessage: invalid_auth'],
    ]);
    expect(h.slack.requests).toHaveLength(2);
    expect(h.slack.accepted).toHaveLength(0);
  });

  it("never sends a tenant's event to another tenant's channel", async () => {
    const a = await h.createTenant('iso-a');
    const b = await h.createTenant('iso-b');
    await h.addChannel(a, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/a` });
    await h.addChannel(b, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/b` });
    await h.addChannel(b, { kind: 'email', target: 'b@example.com' });
    await h.recommend(a, 'eeee0001');
    await h.drain(h.notifier(), [a, b]);

    expect(h.slack.accepted.map((r) => r.path)).toEqual(['/hooks/a']);
    expect(h.smtp.mails).toHaveLength(0);
    expect(await h.deliveries(b)).toEqual([]);
    // The api's role sees none of tenant A's events under tenant B's scope (row-level security).
    const app = new pg.Client({ connectionString: process.env.TIERWISE_PG_APP_URL });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('tierwise.tenant_id', $1, true)`, [b]);
      const { rows } = await app.query('SELECT count(*)::int AS n FROM outbox');
      expect(rows[0].n).toBe(0);
      await app.query('ROLLBACK');
    } finally {
      await app.end();
    }
  });

  it("deletes a tenant's undelivered events with the tenant, so they never block the events queued behind them", async () => {
    const gone = await h.createTenant('deleted');
    const kept = await h.createTenant('kept');
    await h.addChannel(kept, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/kept` });
    await h.recommend(gone, 'dddd0001');
    await h.recommend(kept, 'dddd0002');
    await h.tenants.owner.query('DELETE FROM tenants WHERE id = $1', [gone]);
    const { rows } = await h.tenants.owner.query('SELECT count(*)::int AS n FROM outbox WHERE tenant_id = $1', [gone]);
    expect(rows[0].n).toBe(0);
    await h.drain(h.notifier(), [kept]);
    expect(h.slack.accepted.map((r) => r.path)).toEqual(['/hooks/kept']);
  });

  it('delivers an account.email to payload.to only, exactly once, through a failure, never to tenant channels', async () => {
    const tenant = await h.createTenant('account');
    await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' });
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/account` });
    const { rows } = await h.tenants.owner.query<{ id: string }>(
      `INSERT INTO outbox (tenant_id, event_kind, payload) VALUES ($1, 'account.email', $2) RETURNING id::text`,
      [tenant, { to: 'new.user@example.org', subject: 'Verify your Tierwise address', text: 'Open https://tierwise.test/verify?t=abc', html: '<p><a href="https://tierwise.test/verify?t=abc">Verify</a></p>' }],
    );
    h.smtp.rejectNext = 1;
    await h.drain(h.notifier(), [tenant]);
    await h.drain(h.notifier(), [tenant]); // a second pass sends nothing more

    expect(h.smtp.attempts).toBe(2);
    expect(h.smtp.mails).toHaveLength(1);
    const mail = h.smtp.mails[0]!;
    expect(mail.envelopeTo).toEqual(['new.user@example.org']);
    expect(mail.subject).toBe('Verify your Tierwise address');
    expect(mail.text?.trim()).toBe('Open https://tierwise.test/verify?t=abc');
    expect(mail.html).toContain('<a href="https://tierwise.test/verify?t=abc">Verify</a>');
    expect(mail.messageId).toBe(`<${rows[0]!.id}.account@${MESSAGE_ID_DOMAIN}>`);
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(h.slack.requests).toHaveLength(0);
    expect(await h.deliveries(tenant)).toEqual([expect.objectContaining({ kind: 'account-email', status: 'sent', attempts: 2 })]);
  });
});
