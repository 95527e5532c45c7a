import type { LoggerService } from '@nestjs/common';
import { type EgressPolicy, egressPolicy, inTransaction, loadUnsubscribeKey, signUnsubscribeToken } from '@tierwise/common';
import type pg from 'pg';
import { AlertEvaluator } from './alerts/alert-evaluator.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelaySeconds } from './backoff.js';
import { DeliveryError } from './delivery-error.js';
import {
  type AttemptOutcome,
  type ChannelRow,
  claimDueDelivery,
  claimDueDigest,
  deferDelivery,
  type DueDelivery,
  fanOutEvents,
  recordAttempt,
} from './deliveries-repository.js';
import { type ChannelEvent, type NotifierEvent, parseEvent } from './event.js';
import { renderDigest, renderEmail } from './render/email.js';
import { joinUrl, noticeOf } from './render/format.js';
import { renderSlack } from './render/slack.js';
import type { EmailTransport } from './transports/email-transport.js';
import { postSlackMessage } from './transports/slack-api-transport.js';
import { postSlackWebhook } from './transports/slack-transport.js';

export interface NotifierOptions {
  /** Portal base URL (TIERWISE_WEB_URL) for links. */
  webUrl: string;
  /** Public base URL of the api (TIERWISE_API_URL), for the unsubscribe links. */
  apiUrl: string;
  /** Slack Web API base (TIERWISE_SLACK_API_URL, default https://slack.com/api). */
  slackApiUrl: string;
  /** The one origin Slack webhook targets may name (TIERWISE_SLACK_WEBHOOK_ORIGIN, default https://hooks.slack.com). */
  slackWebhookOrigin: string;
  email: EmailTransport;
  retry?: RetryPolicy;
  /** Sleep between polls when nothing is due, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Seconds between two evaluations of the alert rules (default 30). */
  alertIntervalSeconds?: number;
  /** Events fanned out per transaction (default 100). */
  fanOutBatch?: number;
  logger: LoggerService;
}

/**
 * The delivery worker. Each poll evaluates the alert rules when their interval has passed
 * (src/alerts: incidents open and resolve into outbox events), fans out new outbox events
 * into deliveries (one per routed channel; account e-mails to their address), sends the due
 * deliveries one per transaction, then the due digests one channel per transaction:
 *
 *   BEGIN; claim one due delivery FOR UPDATE SKIP LOCKED; send; record the outcome; COMMIT.
 *
 * The row lock is held while sending, so two notifiers never send the same delivery, and
 * `sent` is committed in the same transaction that held the lock, so a delivery once recorded
 * sent is never sent again. The only window for a duplicate is a crash (or a lost database
 * connection) after the receiver accepted the message and before COMMIT: the delivery is then
 * retried. Emails carry the delivery's idempotency key as Message-ID, so a receiver can
 * discard such a resend; Slack has no idempotency, so a duplicate is possible there in that
 * window only. A delivery due inside a mute window of its channel waits until the window
 * ends. Failures are retried with exponential backoff (honouring Retry-After) and the
 * delivery goes dead after `retry.maxAttempts` attempts or at once on a permanent error.
 * Slack webhook targets are tenant-given URLs: each send goes through the egress guard
 * (@tierwise/common egress), which refuses any off `slackWebhookOrigin` or resolving to a
 * non-public address before a connection is made.
 */
export class Notifier {
  private readonly retry: RetryPolicy;
  private readonly pollIntervalMs: number;
  private readonly fanOutBatch: number;
  private readonly alerts: AlertEvaluator;
  private readonly slackWebhooks: EgressPolicy;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;
  private unsubscribeKey: Buffer | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: NotifierOptions,
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.fanOutBatch = options.fanOutBatch ?? 100;
    this.alerts = new AlertEvaluator(pool, options.alertIntervalSeconds ?? 30);
    this.slackWebhooks = egressPolicy(options.slackWebhookOrigin);
  }

  /** Fans out outbox events until none is left; returns how many were fanned out. */
  async fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await inTransaction(this.pool, (db) => fanOutEvents(db, this.fanOutBatch));
      total += count;
      if (count < this.fanOutBatch) return total;
    }
  }

  /** Sends (or defers, when muted) the due delivery first in line, if any; returns whether there was one. */
  deliverOne(): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      const delivery = await claimDueDelivery(db);
      if (!delivery) return false;
      if (delivery.muted_until) {
        await deferDelivery(db, delivery.id, delivery.muted_until);
        this.options.logger.log({ event: 'delivery_muted', key: delivery.idempotency_key, until: delivery.muted_until.toISOString() });
        return true;
      }
      const result = await this.attempt(delivery.attempts, () => this.send(delivery));
      await recordAttempt(db, [delivery], result);
      this.logOutcome(delivery.idempotency_key, delivery.channel_kind ?? 'account-email', delivery.attempts + 1, result);
      return true;
    });
  }

  /** Sends the due digest of one e-mail channel, if any; returns whether there was one. */
  digestOne(): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      const due = await claimDueDigest(db);
      if (!due) return false;
      const { channel, held } = due;
      const key = `digest.${channel.channel_id}.${channel.period_end}`;
      const attempts = Math.max(...held.map((d) => d.attempts));
      const result = await this.attempt(attempts, async () => {
        if (!channel.active) throw new DeliveryError('channel disabled or unsubscribed', true);
        const notices = held.map((d) => noticeOf(this.channelEvent(d.event_kind, d.severity, d.payload), this.options.webUrl));
        const content = renderDigest(notices, channel.digest, channel.period_label, await this.unsubscribeUrl(channel.tenant_id, channel.channel_id));
        await this.options.email.send(channel.target, content, key);
      });
      await recordAttempt(db, held, result, key);
      this.logOutcome(key, 'email-digest', attempts + 1, result);
      return true;
    });
  }

  /** One poll: alert rules (when due), fan-out, every due delivery and digest (until stopping). */
  async pollOnce(): Promise<number> {
    await this.alerts.evaluateIfDue();
    await this.fanOut();
    let sent = 0;
    while (!this.stopping && (await this.deliverOne())) sent += 1;
    while (!this.stopping && (await this.digestOne())) sent += 1;
    return sent;
  }

  /** Starts polling in the background until {@link stop}. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.loop = this.run();
  }

  /** Stops polling; resolves once the delivery in flight (if any) is recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.pollOnce();
      } catch (error) {
        this.options.logger.error({ event: 'poll_failed', error: (error as Error).message });
      }
      if (this.stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollIntervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private logOutcome(key: string, channel: string, attempt: number, result: AttemptOutcome): void {
    const log = { event: 'delivery', key, channel, attempt, ...result };
    if (result.outcome === 'sent') this.options.logger.log(log);
    else this.options.logger.warn(log);
  }

  /** The signed one-click unsubscribe URL of an e-mail channel: `<api>/v1/notifications/unsubscribe?token=…`. */
  private async unsubscribeUrl(tenantId: string, channelId: string): Promise<string> {
    this.unsubscribeKey ??= await loadUnsubscribeKey(this.pool);
    const url = new URL(joinUrl(this.options.apiUrl, 'v1/notifications/unsubscribe'));
    url.searchParams.set('token', signUnsubscribeToken(this.unsubscribeKey, { tenantId, channelId }));
    return url.toString();
  }

  /** Parses an event; a malformed one is a permanent failure. */
  private event(kind: string, severity: string, payload: unknown): NotifierEvent {
    try {
      return parseEvent(kind, severity, payload);
    } catch (error) {
      throw new DeliveryError((error as Error).message, true);
    }
  }

  private channelEvent(kind: string, severity: string, payload: unknown): ChannelEvent {
    const event = this.event(kind, severity, payload);
    if (event.kind === 'account.email') throw new DeliveryError('account.email events never go to channels', true);
    return event;
  }

  private async send(delivery: DueDelivery): Promise<void> {
    if (!delivery.channel_id) {
      const event = this.event(delivery.event_kind, delivery.severity, delivery.payload);
      if (event.kind !== 'account.email') throw new DeliveryError(`${event.kind} delivery without a channel`, true);
      await this.options.email.send(event.to, { subject: event.subject, text: event.text, html: event.html }, delivery.idempotency_key);
      return;
    }
    const channel = delivery as DueDelivery & ChannelRow;
    if (!channel.active) throw new DeliveryError('channel disabled or unsubscribed after the event was routed', true);
    const notice = noticeOf(this.channelEvent(delivery.event_kind, delivery.severity, delivery.payload), this.options.webUrl);
    switch (channel.channel_kind) {
      case 'email':
        await this.options.email.send(channel.target, renderEmail(notice, await this.unsubscribeUrl(delivery.tenant_id, channel.channel_id)), delivery.idempotency_key);
        return;
      case 'slack-webhook':
        await postSlackWebhook(channel.target, renderSlack(notice), delivery.idempotency_key, this.slackWebhooks);
        return;
      case 'slack-bot':
        await postSlackMessage(this.options.slackApiUrl, channel.secret ?? '', channel.target, renderSlack(notice));
        return;
    }
  }

  /** Runs one send; maps its failure to retry (with backoff) or dead. */
  private async attempt(attemptsBefore: number, send: () => Promise<void>): Promise<AttemptOutcome> {
    try {
      await send();
      return { outcome: 'sent' };
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError(String(error), false);
      const attempts = attemptsBefore + 1;
      if (failure.permanent || attempts >= this.retry.maxAttempts) {
        return { outcome: 'dead', error: failure.message };
      }
      return { outcome: 'retry', error: failure.message, delaySeconds: retryDelaySeconds(attempts, this.retry, failure.retryAfterSeconds) };
    }
  }
}
