import type { LoggerService } from '@nestjs/common';
import { inTransaction } from '@tierwise/common';
import type pg from 'pg';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, retryDelaySeconds } from './backoff.js';
import { DeliveryError } from './delivery-error.js';
import { type AttemptOutcome, claimDueDelivery, type DueDelivery, fanOutEvents, recordAttempt } from './deliveries-repository.js';
import { parseEvent } from './event.js';
import { renderEmail } from './render/email.js';
import { renderSlack } from './render/slack.js';
import type { EmailTransport } from './transports/email-transport.js';
import { postSlackWebhook } from './transports/slack-transport.js';

export interface NotifierOptions {
  /** Portal base URL (TIERWISE_WEB_URL) for links. */
  webUrl: string;
  email: EmailTransport;
  retry?: RetryPolicy;
  /** Sleep between polls when nothing is due, in milliseconds (default 1000). */
  pollIntervalMs?: number;
  /** Events fanned out per transaction (default 100). */
  fanOutBatch?: number;
  logger: LoggerService;
}

/**
 * The delivery worker. Each poll fans out new outbox events into deliveries (one per
 * routed channel), then sends the due deliveries one per transaction:
 *
 *   BEGIN; claim one due delivery FOR UPDATE SKIP LOCKED; send; record the outcome; COMMIT.
 *
 * The row lock is held while sending, so two notifiers never send the same delivery, and
 * `sent` is committed in the same transaction that held the lock, so a delivery once recorded
 * sent is never sent again. The only window for a duplicate is a crash (or a lost database
 * connection) after the receiver accepted the message and before COMMIT: the delivery is then
 * retried. Emails carry the delivery's idempotency key as Message-ID, so a receiver can
 * discard such a resend; Slack webhooks have no idempotency, so a duplicate is possible there
 * in that window only. Failures are retried with exponential backoff (honouring Retry-After)
 * and the delivery goes dead after `retry.maxAttempts` attempts or at once on a permanent error.
 */
export class Notifier {
  private readonly retry: RetryPolicy;
  private readonly pollIntervalMs: number;
  private readonly fanOutBatch: number;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: NotifierOptions,
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.fanOutBatch = options.fanOutBatch ?? 100;
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

  /** Sends the due delivery first in line, if any; returns whether there was one. */
  deliverOne(): Promise<boolean> {
    return inTransaction(this.pool, async (db) => {
      const delivery = await claimDueDelivery(db);
      if (!delivery) return false;
      const result = await this.attempt(delivery);
      await recordAttempt(db, delivery, result);
      const log = { event: 'delivery', key: delivery.idempotency_key, channel: delivery.channel_kind, attempt: delivery.attempts + 1, ...result };
      if (result.outcome === 'sent') this.options.logger.log(log);
      else this.options.logger.warn(log);
      return true;
    });
  }

  /** One poll: fan out, then send every delivery due now (stops early when stopping). */
  async pollOnce(): Promise<number> {
    await this.fanOut();
    let sent = 0;
    while (!this.stopping && (await this.deliverOne())) sent += 1;
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

  private async attempt(delivery: DueDelivery): Promise<AttemptOutcome> {
    try {
      if (!delivery.enabled) throw new DeliveryError('channel disabled after the event was routed', true);
      let event;
      try {
        event = parseEvent(delivery.event_kind, delivery.payload);
      } catch (error) {
        throw new DeliveryError((error as Error).message, true);
      }
      if (delivery.channel_kind === 'email') {
        await this.options.email.send(delivery.target, renderEmail(event, delivery.channel_id, this.options.webUrl), delivery.idempotency_key);
      } else {
        await postSlackWebhook(delivery.target, renderSlack(event, this.options.webUrl), delivery.idempotency_key);
      }
      return { outcome: 'sent' };
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError(String(error), false);
      const attempts = delivery.attempts + 1;
      if (failure.permanent || attempts >= this.retry.maxAttempts) {
        return { outcome: 'dead', error: failure.message };
      }
      return { outcome: 'retry', error: failure.message, delaySeconds: retryDelaySeconds(attempts, this.retry, failure.retryAfterSeconds) };
    }
  }
}
