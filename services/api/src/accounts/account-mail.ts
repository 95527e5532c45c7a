import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_EMAIL_KIND, type Queryable } from '@tierwise/common';
import escapeHtml from 'escape-html';
import { ACCOUNT_SETTINGS, type AccountSettings } from '../config/account-settings.js';

/** Payload of an outbox row of kind ACCOUNT_EMAIL_KIND ('account.email'; services/notifier sends it to `to`). */
export interface AccountEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The e-mails of portal accounts, each with a link to the portal carrying a one-time token. */
export type AccountEmailKind =
  | { kind: 'verify-email'; token: string; hours: number }
  | { kind: 'reset-password'; token: string; hours: number }
  | { kind: 'invitation'; token: string; hours: number; organization: string; role: string; invitedBy: string }
  | { kind: 'already-registered' };

/**
 * Writes account e-mails into the outbox (db/migrations/1700000000001_notifier.sql), in the
 * caller's transaction, so a mail exists exactly when the change it announces committed.
 */
@Injectable()
export class AccountMail {
  constructor(@Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings) {}

  /**
   * Enqueues one e-mail.
   * @param db a transaction whose tierwise.tenant_id is `tenantId` (RLS on outbox).
   * @param tenantId the organization the mail belongs to (outbox.tenant_id).
   * @param to the recipient's address.
   */
  async send(db: Queryable, tenantId: string, to: string, mail: AccountEmailKind): Promise<void> {
    const payload: AccountEmail = { to, ...this.compose(mail) };
    await db.query('INSERT INTO outbox (tenant_id, event_kind, payload) VALUES ($1, $2, $3)', [tenantId, ACCOUNT_EMAIL_KIND, payload]);
  }

  private compose(mail: AccountEmailKind): Omit<AccountEmail, 'to'> {
    const portal = this.settings.portalUrl;
    switch (mail.kind) {
      case 'verify-email':
        return letter('Confirm your Tierwise e-mail address', 'Confirm your e-mail address to log in to Tierwise:', `${portal}/verify-email?token=${mail.token}`, `The link works once, for ${mail.hours} hours.`);
      case 'reset-password':
        return letter('Reset your Tierwise password', 'Someone (hopefully you) asked to reset your Tierwise password:', `${portal}/reset-password?token=${mail.token}`, `The link works once, for ${mail.hours} hours. If you did not ask, ignore this mail: your password stays as it is.`);
      case 'invitation':
        return letter(
          `${mail.invitedBy} invited you to ${mail.organization} on Tierwise`,
          `${mail.invitedBy} invited you to join ${mail.organization} on Tierwise as ${mail.role}:`,
          `${portal}/accept-invitation?token=${mail.token}`,
          `The invitation expires in ${mail.hours} hours.`,
        );
      case 'already-registered':
        return letter('Your Tierwise account', 'Someone tried to sign up to Tierwise with this address, which already has an account. To log in without your password, reset it:', `${portal}/reset-password`, 'If it was not you, ignore this mail.');
    }
  }
}

/** A plain-text and an HTML body of the same short letter: a sentence, a link, a note. */
function letter(subject: string, lead: string, link: string, note: string): Omit<AccountEmail, 'to'> {
  return {
    subject,
    text: `${lead}\n\n${link}\n\n${note}\n`,
    html: `<p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(note)}</p>`,
  };
}
