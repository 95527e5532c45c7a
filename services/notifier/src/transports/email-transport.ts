import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailContent } from '../render/email.js';
import { DeliveryError } from '../delivery-error.js';

/** Domain part of the Message-IDs the notifier writes: `<idempotency key>@tierwise.notifier`. */
export const MESSAGE_ID_DOMAIN = 'tierwise.notifier';

/** Sends rendered emails over SMTP with nodemailer. */
export class EmailTransport {
  private readonly transporter: Transporter;

  /**
   * @param smtpUrl nodemailer SMTP URL, e.g. smtp://127.0.0.1:2525 or smtps://user:pass@host.
   * @param from the From address.
   */
  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    this.transporter = nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      // Bounded waits (nodemailer's defaults reach 10 min): a send holds its delivery's row lock.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  /**
   * Sends one multipart/alternative email (text and HTML) whose Message-ID is
   * `<idempotencyKey@tierwise.notifier>`, so a receiver (or a test) recognises a resend of the
   * same delivery; with List-Unsubscribe and List-Unsubscribe-Post when the content has an
   * unsubscribe URL.
   *
   * @throws DeliveryError, permanent for SMTP 5xx replies (RFC 5321 §4.2.1), transient for 4xx
   *   replies and connection errors.
   */
  async send(to: string, content: EmailContent, idempotencyKey: string): Promise<void> {
    try {
      await this.transporter.sendMail({
        from: this.from,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        messageId: `<${idempotencyKey}@${MESSAGE_ID_DOMAIN}>`,
        ...(content.unsubscribeUrl
          ? {
              // RFC 2369 List-Unsubscribe with RFC 8058 one-click: a POST of
              // "List-Unsubscribe=One-Click" to the URL unsubscribes.
              list: { unsubscribe: content.unsubscribeUrl },
              headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            }
          : {}),
      });
    } catch (error) {
      const responseCode = (error as { responseCode?: number }).responseCode;
      const message = `SMTP: ${(error as Error).message}`;
      throw new DeliveryError(message, responseCode !== undefined && responseCode >= 500);
    }
  }

  close(): void {
    this.transporter.close();
  }
}
