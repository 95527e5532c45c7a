import { ConsoleLogger } from '@nestjs/common';
import { TestTenants } from '@tierwise/common/testing';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Notifier } from '../src/notifier.js';
import { EmailTransport, MESSAGE_ID_DOMAIN } from '../src/transports/email-transport.js';
import { SlackReceiver } from './support/slack-receiver.js';
import { SmtpReceiver } from './support/smtp-receiver.js';

/**
 * The notifier on the real database of the test profile, a real SMTP server and a real HTTP
 * receiver on loopback. Recommendations are written as tierwise_jobs (as the Flink jobs do), so
 * the outbox rows come from the trigger of db/migrations/1700000000001_notifier.sql.
 */
const WEB_URL = 'http://127.0.0.1:3999';
const RETRY = { maxAttempts: 4, baseDelaySeconds: 0.05, maxDelaySeconds: 2 };
const tenants = new TestTenants();
const jobs = new pg.Pool({ connectionString: process.env.TIERWISE_PG_JOBS_URL, max: 6 });
const smtp = new SmtpReceiver();
const slack = new SlackReceiver();
let smtpUrl: string;
let slackUrl: string;
const quiet = new ConsoleLogger('notifier-test', { json: true, logLevels: ['error'] });
const started: Notifier[] = [];
const emails: EmailTransport[] = [];

const tenantIds: string[] = [];

async function createTenant(name: string) {
  const tenant = await tenants.create(name);
  tenantIds.push(tenant.tenant_id);
  return tenant;
}

function newNotifier(): Notifier {
  const email = new EmailTransport(smtpUrl, 'Tierwise <notifications@tierwise.test>');
  emails.push(email);
  const notifier = new Notifier(jobs, { webUrl: WEB_URL, email, retry: RETRY, pollIntervalMs: 20, logger: quiet });
  started.push(notifier);
  return notifier;
}

async function addChannel(tenantId: string, kind: 'email' | 'slack-webhook', target: string): Promise<string> {
  const { rows } = await tenants.owner.query<{ id: string }>(
    'INSERT INTO notification_channels (tenant_id, kind, target) VALUES ($1, $2, $3) RETURNING id',
    [tenantId, kind, target],
  );
  return rows[0]!.id;
}

async function recommend(tenantId: string, volumeId: string, tierBytes = 1_610_612_736, db: Pick<pg.ClientBase, 'query'> = jobs): Promise<void> {
  await db.query(
    `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio,
       achievable_hit_ratio, target_hit_ratio, inputs, explanation)
     VALUES ($1, $2, $3, 'nvme', 'write-back', 0.92, 0.95, 0.9, '{}', 'The working set is 1.4 GiB; the miss ratio curve flattens at 1.5 GiB.')
     ON CONFLICT (tenant_id, volume_id) DO UPDATE SET tier_bytes = EXCLUDED.tier_bytes, explanation = EXCLUDED.explanation`,
    [tenantId, volumeId, tierBytes],
  );
}

async function deliveries(tenantId: string) {
  const { rows } = await tenants.owner.query(
    `SELECT d.idempotency_key, d.status, d.attempts, d.last_error, c.kind
       FROM deliveries d JOIN notification_channels c ON c.id = d.channel_id
      WHERE d.tenant_id = $1 ORDER BY c.kind, d.outbox_id`,
    [tenantId],
  );
  return rows;
}

/** Polls with `notifier` until the tenants' deliveries are all sent or dead (at most 20 s). */
async function drain(notifier: Notifier, tenantIds: string[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    await notifier.pollOnce();
    const { rows } = await tenants.owner.query(
      `SELECT (SELECT count(*) FROM outbox WHERE tenant_id = ANY($1) AND fanned_out_at IS NULL)
            + (SELECT count(*) FROM deliveries WHERE tenant_id = ANY($1) AND status = 'pending') AS open`,
      [tenantIds],
    );
    if (Number(rows[0].open) === 0) return;
    if (Date.now() > deadline) throw new Error('deliveries still pending after 20 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  smtpUrl = await smtp.start();
  slackUrl = await slack.start();
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((notifier) => notifier.stop()));
  smtp.mails.length = 0;
  smtp.attempts = 0;
  smtp.rejectNext = 0;
  slack.requests.length = 0;
  slack.accepted.length = 0;
  slack.script = [];
  slack.always = undefined;
  slack.delayMs = 0;
});

afterAll(async () => {
  for (const email of emails) email.close();
  await smtp.stop();
  await slack.stop();
  // outbox has no foreign key to tenants (see the migration): its rows go first.
  await tenants.owner.query('DELETE FROM outbox WHERE tenant_id = ANY($1)', [tenantIds]);
  await tenants.cleanUp();
  await jobs.end();
});

describe('notifier', () => {
  it('writes one outbox event per new or resized recommendation, in the writer\'s transaction', async () => {
    const tenant = await createTenant('outbox');
    await recommend(tenant.tenant_id, 'aaaa0001');
    await recommend(tenant.tenant_id, 'aaaa0001'); // same size: no event
    await recommend(tenant.tenant_id, 'aaaa0001', 2_147_483_648);
    const client = await jobs.connect();
    try {
      await client.query('BEGIN');
      await recommend(tenant.tenant_id, 'aaaa0002', 1_610_612_736, client);
      await client.query('ROLLBACK'); // the recommendation and its event go together

    } finally {
      client.release();
    }
    const { rows } = await tenants.owner.query(
      `SELECT event_kind, payload->>'volume_id' AS volume_id, (payload->>'tier_bytes')::bigint AS tier_bytes
         FROM outbox WHERE tenant_id = $1 ORDER BY id`,
      [tenant.tenant_id],
    );
    expect(rows).toEqual([
      { event_kind: 'recommendation.created', volume_id: 'aaaa0001', tier_bytes: '1610612736' },
      { event_kind: 'recommendation.updated', volume_id: 'aaaa0001', tier_bytes: '2147483648' },
    ]);
  });

  it('delivers exactly one email and one Slack message although both fail twice first', async () => {
    const tenant = await createTenant('deliver');
    const emailChannel = await addChannel(tenant.tenant_id, 'email', 'ops@example.com');
    await addChannel(tenant.tenant_id, 'slack-webhook', `${slackUrl}/services/T1/B1/x`);
    smtp.rejectNext = 2;
    slack.script = [
      { status: 500, body: 'rollup_error' },
      { status: 429, body: 'rate_limited', headers: { 'retry-after': '1' } },
    ];
    await recommend(tenant.tenant_id, 'bbbb0001');

    await drain(newNotifier(), [tenant.tenant_id]);

    expect(smtp.attempts).toBe(3);
    expect(smtp.mails).toHaveLength(1);
    const [row] = (await deliveries(tenant.tenant_id)).filter((d) => d.kind === 'email');
    const mail = smtp.mails[0]!;
    expect(mail.messageId).toBe(`<${row.idempotency_key}@${MESSAGE_ID_DOMAIN}>`);
    expect(mail.subject).toBe('[Tierwise] New recommendation for volume bbbb0001: 1.5 GiB NVMe write-back');
    expect((mail.to as { text: string }).text).toBe('ops@example.com');
    const unsubscribe = `${WEB_URL}/settings/notifications?unsubscribe=${emailChannel}`;
    expect(mail.text).toContain('Predicted hit ratio: 92.0 %');
    expect(mail.text).toContain(`Open in the portal: ${WEB_URL}/volumes/bbbb0001`);
    expect(mail.text).toContain(`Unsubscribe: ${unsubscribe}`);
    expect(mail.html).toContain(`<a href="${WEB_URL}/volumes/bbbb0001">Open in the portal</a>`);
    expect(mail.html).toContain(unsubscribe);
    expect(mail.html).toContain('miss ratio curve flattens');
    expect(JSON.stringify(mail.headers.get('list'))).toContain(unsubscribe);

    expect(slack.requests).toHaveLength(3);
    expect(slack.requests[2]!.at - slack.requests[1]!.at).toBeGreaterThanOrEqual(950); // Retry-After: 1
    expect(slack.accepted).toHaveLength(1);
    const body = slack.accepted[0]!.body as { text: string; blocks: Array<Record<string, any>> };
    expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
    expect(body.blocks[0]!.text.text).toBe('New recommendation for volume bbbb0001: 1.5 GiB NVMe write-back');
    expect(body.blocks[1]!.fields).toContainEqual({ type: 'mrkdwn', text: '*Cache tier size*\n1.5 GiB' });
    expect(body.blocks[2]!.elements[0]).toMatchObject({ type: 'button', url: `${WEB_URL}/volumes/bbbb0001` });

    const rows = await deliveries(tenant.tenant_id);
    expect(rows.map((d) => [d.kind, d.status, d.attempts])).toEqual([
      ['email', 'sent', 3],
      ['slack-webhook', 'sent', 3],
    ]);
    const log = await tenants.owner.query('SELECT outcome, count(*)::int AS n FROM delivery_attempts WHERE tenant_id = $1 GROUP BY outcome ORDER BY outcome', [tenant.tenant_id]);
    expect(log.rows).toEqual([{ outcome: 'retry', n: 4 }, { outcome: 'sent', n: 2 }]);
  });

  it('resumes after a stop without losing or repeating a message', async () => {
    const tenant = await createTenant('resume');
    await addChannel(tenant.tenant_id, 'email', 'ops@example.com');
    await addChannel(tenant.tenant_id, 'slack-webhook', `${slackUrl}/services/T1/B2/y`);
    for (const volume of ['cccc0001', 'cccc0002', 'cccc0003']) await recommend(tenant.tenant_id, volume);

    // First notifier: fans out, then is stopped while a Slack message is in flight.
    const first = newNotifier();
    expect(await first.fanOut()).toBeGreaterThanOrEqual(3);
    expect(await deliveries(tenant.tenant_id)).toHaveLength(6);
    slack.delayMs = 300;
    first.start();
    await expect.poll(() => slack.requests.length, { timeout: 5000, interval: 10 }).toBeGreaterThan(0);
    await first.stop();
    const pendingAfterStop = (await deliveries(tenant.tenant_id)).filter((d) => d.status === 'pending').length;
    expect(pendingAfterStop).toBeGreaterThan(0);
    slack.delayMs = 0;

    // Two notifiers resume at once: row locks keep them from sending a delivery twice.
    await Promise.all([drain(newNotifier(), [tenant.tenant_id]), drain(newNotifier(), [tenant.tenant_id])]);

    const messageIds = smtp.mails.map((m) => m.messageId);
    expect(messageIds).toHaveLength(3);
    expect(new Set(messageIds).size).toBe(3);
    const slackVolumes = slack.accepted.map((r) => (r.body as { blocks: Array<Record<string, any>> }).blocks[2]!.elements[0].url);
    expect(slackVolumes.sort()).toEqual(['cccc0001', 'cccc0002', 'cccc0003'].map((v) => `${WEB_URL}/volumes/${v}`));
    expect((await deliveries(tenant.tenant_id)).every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
  });

  it('puts a delivery in the dead letter after maxAttempts failures, or at once on a permanent error', async () => {
    const tenant = await createTenant('dead');
    await addChannel(tenant.tenant_id, 'slack-webhook', `${slackUrl}/services/T1/B3/down`);
    slack.always = { status: 503, body: 'service unavailable' };
    await recommend(tenant.tenant_id, 'dddd0001');
    await drain(newNotifier(), [tenant.tenant_id]);
    expect(await deliveries(tenant.tenant_id)).toEqual([
      expect.objectContaining({ status: 'dead', attempts: RETRY.maxAttempts, last_error: 'Slack webhook: HTTP 503 service unavailable' }),
    ]);
    expect(slack.requests).toHaveLength(RETRY.maxAttempts);

    const gone = await createTenant('gone');
    await addChannel(gone.tenant_id, 'slack-webhook', `${slackUrl}/services/T1/B4/gone`);
    slack.always = { status: 404, body: 'no_service' };
    await recommend(gone.tenant_id, 'dddd0002');
    await drain(newNotifier(), [gone.tenant_id]);
    expect(await deliveries(gone.tenant_id)).toEqual([
      expect.objectContaining({ status: 'dead', attempts: 1, last_error: 'Slack webhook: HTTP 404 no_service' }),
    ]);
  });

  it("never sends a tenant's event to another tenant's channel", async () => {
    const a = await createTenant('iso-a');
    const b = await createTenant('iso-b');
    await addChannel(a.tenant_id, 'slack-webhook', `${slackUrl}/hooks/a`);
    await addChannel(b.tenant_id, 'slack-webhook', `${slackUrl}/hooks/b`);
    await addChannel(b.tenant_id, 'email', 'b@example.com');
    await recommend(a.tenant_id, 'eeee0001');
    await drain(newNotifier(), [a.tenant_id, b.tenant_id]);

    expect(slack.accepted.map((r) => r.path)).toEqual(['/hooks/a']);
    expect(smtp.mails).toHaveLength(0);
    expect(await deliveries(b.tenant_id)).toEqual([]);
    // The api's role sees none of tenant A's events under tenant B's scope (row-level security).
    const app = new pg.Client({ connectionString: process.env.TIERWISE_PG_APP_URL });
    await app.connect();
    try {
      await app.query('BEGIN');
      await app.query(`SELECT set_config('tierwise.tenant_id', $1, true)`, [b.tenant_id]);
      const { rows } = await app.query('SELECT count(*)::int AS n FROM outbox');
      expect(rows[0].n).toBe(0);
      await app.query('ROLLBACK');
    } finally {
      await app.end();
    }
  });
});
