import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received message: parsed by mailparser, with its raw source (headers and MIME parts). */
export type ReceivedMail = ParsedMail & { raw: string; envelopeTo: string[] };

/**
 * A real SMTP server (smtp-server) on a random loopback port that parses every message with
 * mailparser. `rejectNext` messages are refused at end of DATA with 451 (transient, RFC 5321);
 * `delayMs` holds the end-of-DATA answer back (to kill a notifier mid-send).
 */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  /** Messages received at DATA, accepted or not. */
  attempts = 0;
  rejectNext = 0;
  delayMs = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        this.attempts += 1;
        const answer = async () => {
          if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
          if (this.rejectNext > 0) {
            this.rejectNext -= 1;
            callback(Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 }));
            return;
          }
          const mail = await simpleParser(raw);
          this.mails.push(Object.assign(mail, { raw: raw.toString('utf8'), envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        };
        answer().catch(callback);
      });
    },
  });

  /** Listens on 127.0.0.1; returns the smtp:// URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  /** Forgets what it received and its settings. */
  reset(): void {
    this.mails.length = 0;
    this.attempts = 0;
    this.rejectNext = 0;
    this.delayMs = 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
