import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, sha256Hex } from '@tierwise/common';
import { AuditService } from '../audit/audit.service.js';
import type { RequestOrigin } from '../http/request-origin.js';
import type { AcceptedDto } from './account.dto.js';
import type { EmailBody, PasswordResetBody, SignupBody, TokenBody } from './account-bodies.js';
import { AccountMailer } from './account-mailer.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { LoginThrottle } from './login-throttle.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionsRepository } from '../identity/sessions.repository.js';
import { UsersRepository } from './users.repository.js';

/** The same answer whether or not an address has an account (no account enumeration). */
const MAIL_SENT: AcceptedDto = { message: 'if the address can receive it, a mail is on its way' };

/**
 * Sign-up (a user and the organization they own), e-mail verification and password reset.
 * Every mail goes through the outbox in the transaction of the change it announces.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly hasher: PasswordHasher,
    private readonly mailer: AccountMailer,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionsRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Creates the user (e-mail not yet verified), a new organization with the user as owner,
   * and mails a verification link. An address that already has an account gets a mail
   * saying so instead; the answer is the same (202) either way. The new organization's audit
   * log starts with its creation.
   * @throws ApiError 429 past the per-IP mail limit.
   */
  async signup(body: SignupBody, origin: RequestOrigin): Promise<AcceptedDto> {
    await this.throttle.mailFrom(origin.ip ?? 'unknown');
    const existing = await this.users.findLogin(body.email);
    if (existing) {
      await this.mailer.sendAlreadyRegistered(existing.user_id);
      return MAIL_SENT;
    }
    const passwordHash = await this.hasher.hash(body.password);
    const [tenantId, userId] = [randomUUID(), randomUUID()];
    const user = { id: userId, email: body.email };
    try {
      await this.transactions.run({ tenantId, userId }, async (db) => {
        await this.memberships.insertOrganization(db, tenantId, body.organization_name);
        await this.users.insert(db, { ...user, displayName: body.display_name, passwordHash, verified: false });
        await this.memberships.insert(db, tenantId, userId, 'owner');
        await this.mailer.issueToken(db, user, tenantId, 'verify-email');
        const founder = { tenantId, actor: { kind: 'user' as const, id: userId }, role: 'owner' as const, scope: 'read-write' as const };
        await this.audit.record(db, founder, origin, { action: 'organization.create', targetKind: 'organization', targetId: tenantId, before: null, after: { name: body.organization_name } });
      });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === ErrorCode.Conflict)) {
        throw error;
      }
      // Signed up concurrently with the same address: the other request created the account.
    }
    return MAIL_SENT;
  }

  /** Marks the address of the token's user verified. @throws ApiError 400 for an unknown, used or expired token. */
  async verifyEmail(body: TokenBody): Promise<AcceptedDto> {
    const userId = await this.users.consumeToken(sha256Hex(body.token), 'verify-email');
    if (!userId) {
      throw new ApiError(ErrorCode.BadRequest, 'the verification link is unknown, used or expired; ask for a new one');
    }
    await this.transactions.run({ userId }, (db) => this.users.markVerified(db, userId));
    return { message: 'e-mail address verified; you can log in' };
  }

  /** Mails a new verification link to an unverified address (202 whatever the address). */
  async resendVerification(body: EmailBody, ip: string): Promise<AcceptedDto> {
    await this.throttle.mailFrom(ip);
    const user = await this.users.findLogin(body.email);
    if (user && !user.email_verified) {
      await this.mailer.sendToken(user.user_id, 'verify-email');
    }
    return MAIL_SENT;
  }

  /** Mails a password reset link (202 whatever the address). */
  async requestPasswordReset(body: EmailBody, ip: string): Promise<AcceptedDto> {
    await this.throttle.mailFrom(ip);
    const user = await this.users.findLogin(body.email);
    if (user) {
      await this.mailer.sendToken(user.user_id, 'reset-password');
    }
    return MAIL_SENT;
  }

  /**
   * Sets the new password of the token's user, unlocks the account and ends all its sessions.
   * @throws ApiError 400 for an unknown, used or expired token.
   */
  async resetPassword(body: PasswordResetBody): Promise<AcceptedDto> {
    const userId = await this.users.consumeToken(sha256Hex(body.token), 'reset-password');
    if (!userId) {
      throw new ApiError(ErrorCode.BadRequest, 'the reset link is unknown, used or expired; ask for a new one');
    }
    const passwordHash = await this.hasher.hash(body.password);
    await this.transactions.run({ userId }, async (db) => {
      await this.users.setPassword(db, userId, passwordHash);
      await this.sessions.revokeAllOfUser(db, userId);
    });
    return { message: 'password changed; every session was logged out' };
  }
}
