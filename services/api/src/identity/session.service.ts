import { Inject, Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, generateCredential, sha256Hex } from '@tierwise/common';
import type { Request, Response } from 'express';
import type { Principal } from './principal.js';
import { ACCOUNT_SETTINGS, type AccountSettings } from '../config/account-settings.js';
import { AccountTransactions } from './account-transaction.js';
import { MembershipsRepository } from './memberships.repository.js';
import { SessionCookies } from './session-cookies.js';
import { SessionsRepository } from './sessions.repository.js';

/** A portal session as the guard found it. */
export interface PortalSession {
  id: string;
  userId: string;
  tenantId: string;
  expiresAt: Date;
  principal: Principal;
}

/** A session just started: its id, absolute expiry and CSRF token. */
export interface StartedSession {
  id: string;
  expiresAt: Date;
  csrfToken: string;
}

/**
 * Portal sessions: a random 256-bit token in the cookie, only its SHA-256 stored; a new
 * token at every login (the one the browser presented is revoked: no session fixation);
 * idle and absolute expiry (AccountSettings); revocation one by one or everywhere.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings,
    private readonly transactions: AccountTransactions,
    private readonly sessions: SessionsRepository,
    private readonly cookies: SessionCookies,
    private readonly memberships: MembershipsRepository,
  ) {}

  /**
   * Logs `userId` in to `tenantId`: revokes the session of the request's cookie if any, creates
   * a new one and sets its cookies.
   */
  async start(request: Request, response: Response, login: { tenantId: string; userId: string }): Promise<StartedSession> {
    const token = generateCredential('tws_');
    const previous = this.cookies.token(request);
    const session = await this.transactions.run({ tenantId: login.tenantId, userId: login.userId }, async (db) => {
      if (previous) {
        await this.sessions.revokeByToken(db, sha256Hex(previous));
      }
      return this.sessions.insert(db, {
        ...login,
        tokenSha256: sha256Hex(token),
        seconds: this.settings.sessionAbsoluteSeconds,
        ip: request.ip ?? null,
        userAgent: request.header('user-agent') ?? null,
      });
    });
    const csrfToken = this.cookies.issue(request, response, { id: session.id, token, expiresAt: session.expires_at });
    return { id: session.id, expiresAt: session.expires_at, csrfToken };
  }

  /**
   * Moves the user to another of their organizations: a new session there (the current one is revoked).
   * @throws ApiError 404 when the user is not a member of `tenantId`.
   */
  async switchOrganization(request: Request, response: Response, session: PortalSession, tenantId: string): Promise<StartedSession> {
    const organizations = await this.transactions.run({ userId: session.userId }, (db) => this.memberships.organizationsOf(db, session.userId));
    if (!organizations.some((o) => o.tenant_id === tenantId)) {
      throw new ApiError(ErrorCode.NotFound, `you are not a member of organization ${tenantId}`);
    }
    return this.start(request, response, { tenantId, userId: session.userId });
  }

  /** The live session of the request's cookie (stamping its last use), or null. */
  async find(request: Request): Promise<PortalSession | null> {
    const token = this.cookies.token(request);
    if (!token) {
      return null;
    }
    const row = await this.sessions.authenticate(sha256Hex(token), this.settings.sessionIdleSeconds);
    if (!row) {
      return null;
    }
    return {
      id: row.session_id,
      userId: row.user_id,
      tenantId: row.tenant_id,
      expiresAt: row.expires_at,
      principal: { tenantId: row.tenant_id, actor: { kind: 'user', id: row.user_id }, role: row.role, scope: 'read-write' },
    };
  }

  /** Logs out the request's session and clears its cookies. */
  async end(request: Request, response: Response, session: PortalSession): Promise<void> {
    const token = this.cookies.token(request) as string;
    await this.transactions.run({ tenantId: session.tenantId, userId: session.userId }, (db) => this.sessions.revokeByToken(db, sha256Hex(token)));
    this.cookies.clear(request, response);
  }

  /** Revokes every session of `userId` in every organization; returns how many were live. */
  endEverywhere(userId: string): Promise<number> {
    return this.transactions.run({ userId }, (db) => this.sessions.revokeAllOfUser(db, userId));
  }
}
