import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, ErrorCode } from '@tierwise/common';
import { SessionCookies } from '../identity/session-cookies.js';
import { type PortalSession, SessionService } from '../identity/session.service.js';
import { PERMISSION_METADATA } from './api-key.guard.js';
import { assertPermission, type Permission } from '../identity/permission.js';
import type { AuthenticatedRequest } from '../identity/principal.js';

/** A request that passed {@link SessionGuard}: the principal and the portal session behind it. */
export interface SessionRequest extends AuthenticatedRequest {
  portalSession: PortalSession;
}

/** Methods that change nothing (RFC 9110 section 9.2.1): no CSRF token needed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates the portal session cookie and puts the member's {@link Principal} on the
 * request (role read from the membership at every request; scope 'read-write'); on an
 * unsafe method also checks the CSRF token. 401 `unauthorized` without a live session,
 * 403 `forbidden` without a valid CSRF token or without the route's permission (when the
 * route names one).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionService,
    private readonly cookies: SessionCookies,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SessionRequest>();
    const session = await this.sessions.find(request);
    if (!session) {
      throw new ApiError(ErrorCode.Unauthorized, 'no live session: log in (the session cookie is missing, expired or revoked)');
    }
    if (!SAFE_METHODS.has(request.method) && !this.cookies.csrfValid(request, session.id)) {
      throw new ApiError(ErrorCode.Forbidden, 'missing or invalid CSRF token (send the csrf_token of the session in the x-csrf-token header)');
    }
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_METADATA, [context.getHandler(), context.getClass()]);
    if (permission) {
      assertPermission(session.principal, permission);
    }
    request.principal = session.principal;
    request.portalSession = session;
    return true;
  }

}
