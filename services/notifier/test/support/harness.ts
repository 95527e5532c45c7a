import { ConsoleLogger } from '@nestjs/common';
import { TestTenants } from '@tierwise/common/testing';
import pg from 'pg';
import { Notifier } from '../../src/notifier.js';
import { EmailTransport } from '../../src/transports/email-transport.js';
import { SlackReceiver } from './slack-receiver.js';
import { SmtpReceiver } from './smtp-receiver.js';

/** Portal and api URLs the messages link to. */
export const WEB_URL = 'http://127.0.0.1:3999';
export const API_URL = 'http://127.0.0.1:3998';
/** Fast retries: 50 ms, 100 ms, 200 ms; dead after 4 attempts. */
export const RETRY = { maxAttempts: 4, baseDelaySeconds: 0.05, maxDelaySeconds: 2 };

type Db = Pick<pg.ClientBase, 'query'>;

/**
 * What a notifier suite needs on the real database of the test profile: tenants (owner pool),
 * the jobs pool the notifier uses, a real SMTP server and a Slack-like receiver on loopback,
 * and helpers that arrange settings rows and write recommendations as the Flink jobs do (so
 * outbox rows come from the trigger).
 */
export class Harness {
  readonly tenants = new TestTenants();
  readonly jobs = new pg.Pool({ connectionString: process.env.TIERWISE_PG_JOBS_URL, max: 6 });
  readonly smtp = new SmtpReceiver();
  readonly slack = new SlackReceiver();
  smtpUrl = '';
  slackUrl = '';
  private readonly notifiers: Notifier[] = [];
  private readonly emails: EmailTransport[] = [];
  private readonly quiet = new ConsoleLogger('notifier-test', { json: true, logLevels: ['error'] });

  async start(): Promise<void> {
    this.smtpUrl = await this.smtp.start();
    this.slackUrl = await this.slack.start();
  }

  /** Stops the notifiers of the last test and resets the receivers. */
  async afterEach(): Promise<void> {
    await Promise.all(this.notifiers.splice(0).map((notifier) => notifier.stop()));
    this.smtp.reset();
    this.slack.reset();
  }

  async stop(): Promise<void> {
    for (const email of this.emails) email.close();
    await this.smtp.stop();
    await this.slack.stop();
    await this.tenants.cleanUp();
    await this.jobs.end();
  }

  async createTenant(name: string): Promise<string> {
    return (await this.tenants.create(name)).tenant_id;
  }

  /**
   * A notifier on the receivers; `apiUrl` overrides the api its unsubscribe links name,
   * `slackWebhookOrigin` the webhook origin it trusts (default: the local Slack receiver).
   */
  notifier(apiUrl = API_URL, slackWebhookOrigin = this.slackUrl): Notifier {
    const email = new EmailTransport(this.smtpUrl, 'Tierwise <notifications@tierwise.test>');
    this.emails.push(email);
    const notifier = new Notifier(this.jobs, {
      webUrl: WEB_URL,
      apiUrl,
      slackApiUrl: `${this.slackUrl}/api`,
      slackWebhookOrigin,
      email,
      retry: RETRY,
      pollIntervalMs: 20,
      alertIntervalSeconds: 0,
      logger: this.quiet,
    });
    this.notifiers.push(notifier);
    return notifier;
  }

  /**
   * Adds a channel and a route to it (unless `route` is null).
   * @returns the channel id.
   */
  async addChannel(
    tenantId: string,
    channel: { kind: 'email' | 'slack-webhook' | 'slack-bot'; target: string; secret?: string; digest?: string },
    route: { event_kinds?: string[]; min_severity?: string } | null = {},
  ): Promise<string> {
    const { rows } = await this.tenants.owner.query<{ id: string }>(
      `INSERT INTO notification_channels (tenant_id, kind, name, target, secret, digest) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [tenantId, channel.kind, `${channel.kind} channel`, channel.target, channel.secret ?? null, channel.digest ?? 'immediate'],
    );
    const channelId = rows[0]!.id;
    if (route) {
      await this.tenants.owner.query(
        `INSERT INTO notification_routes (tenant_id, channel_id, event_kinds, min_severity) VALUES ($1, $2, $3, $4)`,
        [tenantId, channelId, route.event_kinds ?? ['recommendation.created', 'recommendation.updated', 'alert.firing', 'alert.resolved'], route.min_severity ?? 'info'],
      );
    }
    return channelId;
  }

  /** Writes a recommendation as the Flink jobs do (upsert as tierwise_jobs); the trigger writes its outbox event. */
  async recommend(tenantId: string, volumeId: string, tierBytes = 1_610_612_736, db: Db = this.jobs): Promise<void> {
    await db.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio,
         achievable_hit_ratio, target_hit_ratio, inputs, explanation)
       VALUES ($1, $2, $3, 'nvme', 'write-back', 0.92, 0.95, 0.9, '{}', 'The working set is 1.4 GiB; the miss ratio curve flattens at 1.5 GiB.')
       ON CONFLICT (tenant_id, volume_id) DO UPDATE SET tier_bytes = EXCLUDED.tier_bytes, explanation = EXCLUDED.explanation`,
      [tenantId, volumeId, tierBytes],
    );
  }

  /** The tenant's deliveries with their channel kind ('account-email' without a channel), by kind then event. */
  async deliveries(tenantId: string): Promise<Array<{ id: string; idempotency_key: string; status: string; attempts: number; last_error: string | null; kind: string; next_attempt_at: Date }>> {
    const { rows } = await this.tenants.owner.query(
      `SELECT d.id::text, d.idempotency_key, d.status, d.attempts, d.last_error, coalesce(c.kind, 'account-email') AS kind, d.next_attempt_at
         FROM deliveries d LEFT JOIN notification_channels c ON c.id = d.channel_id
        WHERE d.tenant_id = $1 ORDER BY kind, d.outbox_id`,
      [tenantId],
    );
    return rows;
  }

  /** Polls with `notifier` until the tenants' deliveries due now are all sent or dead (at most 20 s). */
  async drain(notifier: Notifier, tenantIds: string[]): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await notifier.pollOnce();
      const { rows } = await this.tenants.owner.query(
        `SELECT (SELECT count(*) FROM outbox WHERE tenant_id = ANY($1) AND fanned_out_at IS NULL)
              + (SELECT count(*) FROM deliveries WHERE tenant_id = ANY($1) AND status = 'pending'
                  AND next_attempt_at < now() + interval '5 seconds') AS open`,
        [tenantIds],
      );
      if (Number(rows[0].open) === 0) return;
      if (Date.now() > deadline) throw new Error('deliveries still pending after 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
