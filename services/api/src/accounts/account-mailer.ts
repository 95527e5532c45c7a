import { Injectable } from '@nestjs/common';
import { generateCredential, type Queryable, sha256Hex } from '@tierwise/common';
import { AccountMail } from './account-mail.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { type AccountTokenPurpose, UsersRepository } from './users.repository.js';

/** Hours an e-mail verification link works. */
export const VERIFY_EMAIL_HOURS = 48;
/** Hours a password reset link works (OWASP Forgot Password Cheat Sheet: short-lived, single use). */
export const RESET_PASSWORD_HOURS = 1;

/**
 * Sends a user a mail with a fresh single-use token (verification or password reset): the
 * token's SHA-256 and the outbox row are written in one transaction, under the user's oldest
 * organization (outbox rows belong to a tenant).
 */
@Injectable()
export class AccountMailer {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly mail: AccountMail,
  ) {}

  /**
   * @returns false when the user belongs to no organization (no mail is sent then).
   */
  sendToken(userId: string, purpose: AccountTokenPurpose): Promise<boolean> {
    return this.transactions.run({ userId }, async (db) => {
      const user = await this.users.get(db, userId);
      const [organization] = await this.memberships.organizationsOf(db, userId);
      if (!user || !organization) {
        return false;
      }
      await db.query(`SELECT set_config('tierwise.tenant_id', $1, true)`, [organization.tenant_id]);
      await this.issueToken(db, user, organization.tenant_id, purpose);
      return true;
    });
  }

  /**
   * Stores a new token of `user` and enqueues its mail, in the caller's transaction.
   * @param db a transaction scoped to the user and to `tenantId`.
   */
  async issueToken(db: Queryable, user: { id: string; email: string }, tenantId: string, purpose: AccountTokenPurpose): Promise<void> {
    const token = generateCredential('');
    const hours = purpose === 'verify-email' ? VERIFY_EMAIL_HOURS : RESET_PASSWORD_HOURS;
    await this.users.insertToken(db, user.id, purpose, sha256Hex(token), hours * 3600);
    await this.mail.send(db, tenantId, user.email, { kind: purpose, token, hours });
  }

  /** Tells the owner of an address that someone tried to sign up with it again. */
  sendAlreadyRegistered(userId: string): Promise<void> {
    return this.transactions.run({ userId }, async (db) => {
      const user = await this.users.get(db, userId);
      const [organization] = await this.memberships.organizationsOf(db, userId);
      if (user && organization) {
        await db.query(`SELECT set_config('tierwise.tenant_id', $1, true)`, [organization.tenant_id]);
        await this.mail.send(db, organization.tenant_id, user.email, { kind: 'already-registered' });
      }
    });
  }
}
