import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request, Response } from 'express';
import * as oidc from 'openid-client';
import type { SessionDto } from './account.dto.js';
import { ACCOUNT_SETTINGS, type AccountSettings, type OidcSettings } from '../config/account-settings.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { SessionDescriber } from './session-describer.js';
import { SessionService } from '../identity/session.service.js';
import { SessionsRepository } from '../identity/sessions.repository.js';
import { UsersRepository } from './users.repository.js';

/** Signed cookie holding the state, nonce and PKCE verifier between /login and /callback. */
export const OIDC_FLOW_COOKIE = 'tw_oidc';
const FLOW_SECONDS = 10 * 60;

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * OpenID Connect login (OIDC Core 1.0, authorization code flow with PKCE S256, RFC 7636) as a
 * relying party, with openid-client. The user is found by the (issuer, subject) link, else
 * linked by the provider's *verified* e-mail address, else created with a new organization.
 * Linking to an account whose address was never verified drops its password and sessions: the
 * provider proved who owns the address, the password may have been set by someone else.
 */
@Injectable()
export class OidcService {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    @Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings,
    private readonly transactions: AccountTransactions,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
    private readonly sessionRows: SessionsRepository,
    private readonly sessions: SessionService,
    private readonly describer: SessionDescriber,
  ) {}

  /** The provider's authorization URL for a new login; sets the flow cookie. @throws ApiError 404 when OIDC is not configured. */
  async begin(response: Response): Promise<string> {
    const { settings, configuration } = await this.configured();
    const flow: Flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
    response.cookie(OIDC_FLOW_COOKIE, JSON.stringify(flow), {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: settings.redirectUri.startsWith('https:'),
      path: '/v1/auth/oidc',
      maxAge: FLOW_SECONDS * 1000,
    });
    return oidc
      .buildAuthorizationUrl(configuration, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      })
      .toString();
  }

  /**
   * Completes the login from the provider's redirect: code exchange (state, nonce and PKCE
   * checked by openid-client), UserInfo, user look-up or creation, new session.
   * @throws ApiError 400 without a valid flow cookie or when the provider refuses; 403 when the
   *   provider gives no verified e-mail address.
   */
  async complete(request: Request, response: Response): Promise<SessionDto> {
    const { configuration } = await this.configured();
    const flow = readFlow(request.signedCookies?.[OIDC_FLOW_COOKIE]);
    response.clearCookie(OIDC_FLOW_COOKIE, { path: '/v1/auth/oidc' });
    if (!flow) {
      throw new ApiError(ErrorCode.BadRequest, 'no OIDC login in progress in this browser (start at /v1/auth/oidc/login)');
    }
    const callbackUrl = new URL(request.originalUrl, this.settings.oidc?.redirectUri);
    const tokens = await oidc
      .authorizationCodeGrant(configuration, callbackUrl, { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true })
      .catch((error: Error) => {
        throw new ApiError(ErrorCode.BadRequest, `OIDC login failed: ${error.message}`, { cause: error });
      });
    const subject = tokens.claims()?.sub as string;
    const info = await oidc.fetchUserInfo(configuration, tokens.access_token, subject);
    if (typeof info.email !== 'string' || info.email_verified !== true) {
      throw new ApiError(ErrorCode.Forbidden, 'the identity provider gave no verified e-mail address');
    }
    const issuer = configuration.serverMetadata().issuer;
    const email = info.email.toLowerCase();
    const userId = await this.userFor(issuer, subject, email, typeof info.name === 'string' && info.name ? info.name : email);
    const [organization] = await this.transactions.run({ userId }, (db) => this.memberships.organizationsOf(db, userId));
    if (!organization) {
      throw new ApiError(ErrorCode.Forbidden, 'you are not a member of any organization; ask for an invitation');
    }
    const session = await this.sessions.start(request, response, { tenantId: organization.tenant_id, userId });
    return this.describer.describe(userId, organization.tenant_id, session);
  }

  /** The user of an OIDC identity: linked before, linked now by e-mail, or created. */
  private async userFor(issuer: string, subject: string, email: string, name: string): Promise<string> {
    const found = await this.users.findOidcUser(issuer, subject, email);
    if (found?.linked) {
      return found.user_id;
    }
    if (found) {
      await this.transactions.run({ userId: found.user_id }, async (db) => {
        if (!found.email_verified) {
          await this.users.setPassword(db, found.user_id, null);
          await this.sessionRows.revokeAllOfUser(db, found.user_id);
        }
        await this.users.linkOidc(db, found.user_id, issuer, subject);
      });
      return found.user_id;
    }
    const [tenantId, userId] = [randomUUID(), randomUUID()];
    await this.transactions.run({ tenantId, userId }, async (db) => {
      await this.memberships.insertOrganization(db, tenantId, `${name}'s organization`);
      await this.users.insert(db, { id: userId, email, displayName: name, passwordHash: null, verified: true });
      await this.memberships.insert(db, tenantId, userId, 'owner');
      await this.users.linkOidc(db, userId, issuer, subject);
    });
    return userId;
  }

  /** The provider's metadata (discovered once; a failed discovery is retried at the next login). */
  private async configured(): Promise<{ settings: OidcSettings; configuration: oidc.Configuration }> {
    const settings = this.settings.oidc;
    if (!settings) {
      throw new ApiError(ErrorCode.NotFound, 'OIDC login is not configured (TIERWISE_OIDC_ISSUER)');
    }
    this.configuration ??= oidc.discovery(settings.issuer, settings.clientId, settings.clientSecret, undefined, {
      // Plain HTTP only for a provider on loopback (local stack and tests).
      execute: settings.issuer.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(settings.issuer.hostname) ? [oidc.allowInsecureRequests] : [],
    });
    try {
      return { settings, configuration: await this.configuration };
    } catch (error) {
      this.configuration = null;
      throw new ApiError(ErrorCode.Unavailable, 'the OIDC provider cannot be reached; retry later', { retryAfterSeconds: 5, cause: error });
    }
  }
}

function readFlow(value: unknown): Flow | null {
  if (typeof value !== 'string') {
    return null;
  }
  try {
    const flow = JSON.parse(value) as Partial<Flow>;
    return typeof flow.state === 'string' && typeof flow.nonce === 'string' && typeof flow.verifier === 'string' ? (flow as Flow) : null;
  } catch {
    return null;
  }
}
