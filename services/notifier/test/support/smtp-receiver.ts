import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server (smtp-server) on a random loopback port that parses every message with
 * mailparser. `rejectNext` messages are refused at end of DATA with 451 (transient, RFC 5321).
 */
export class SmtpReceiver {
  readonly mails: ParsedMail[] = [];
  /** Messages received at DATA, accepted or not. */
  attempts = 0;
  rejectNext = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream).then((mail) => {
        this.attempts += 1;
        if (this.rejectNext > 0) {
          this.rejectNext -= 1;
          callback(Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 }));
          return;
        }
        this.mails.push(mail);
        callback();
      }, callback);
    },
  });

  /** Listens on 127.0.0.1; returns the smtp:// URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
