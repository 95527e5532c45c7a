import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request, Response } from 'express';
import type { SessionDto } from './account.dto.js';
import type { LoginBody } from './account-bodies.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { LoginThrottle } from './login-throttle.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionDescriber } from './session-describer.js';
import { SessionService } from '../identity/session.service.js';
import { UsersRepository } from './users.repository.js';

/** One message for an unknown address and a wrong password (no account enumeration). */
const INVALID_CREDENTIALS = 'e-mail address or password is wrong';

/**
 * Password login: per-IP and per-account throttling, argon2id verification (rehash when the
 * parameters changed), then a new session in the chosen organization.
 */
@Injectable()
export class LoginService {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionService,
    private readonly describer: SessionDescriber,
  ) {}

  /**
   * @throws ApiError 401 wrong address or password; 429 (Retry-After) IP, or address from this IP, throttled;
   *   403 address not verified yet, or not a member of the asked (or of any) organization.
   */
  async login(body: LoginBody, request: Request, response: Response): Promise<SessionDto> {
    const ip = request.ip ?? 'unknown';
    await this.throttle.assertMayLogin(body.email, ip);
    const user = await this.users.findLogin(body.email);
    const matches = await this.hasher.verify(user?.password_hash ?? null, body.password);
    if (!user || !matches) {
      await this.throttle.failed(body.email, ip);
      throw new ApiError(ErrorCode.Unauthorized, INVALID_CREDENTIALS);
    }
    await this.throttle.succeeded(body.email, ip);
    if (!user.email_verified) {
      throw new ApiError(ErrorCode.Forbidden, 'confirm your e-mail address first (use the link we mailed you, or ask for a new one)');
    }
    const rehash = this.hasher.needsRehash(user.password_hash as string) ? await this.hasher.hash(body.password) : null;
    const organizations = await this.transactions.run({ userId: user.user_id }, async (db) => {
      if (rehash) await this.users.rehashPassword(db, user.user_id, rehash);
      return this.memberships.organizationsOf(db, user.user_id);
    });
    const organization = body.organization_id ? organizations.find((o) => o.tenant_id === body.organization_id) : organizations[0];
    if (!organization) {
      throw new ApiError(ErrorCode.Forbidden, body.organization_id ? 'you are not a member of that organization' : 'you are not a member of any organization; ask for an invitation');
    }
    const session = await this.sessions.start(request, response, { tenantId: organization.tenant_id, userId: user.user_id });
    return this.describer.describe(user.user_id, organization.tenant_id, session);
  }
}
