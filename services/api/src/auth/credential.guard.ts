import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request } from 'express';
import { SESSION_COOKIE } from '../identity/session-cookies.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { SessionGuard } from './session.guard.js';

/**
 * The guard of `@Authenticated` routes: a request with an `Authorization` header is
 * authenticated as an API key (ApiKeyGuard), one with the session cookie as a portal session
 * (SessionGuard); one with neither is 401. Both produce the same {@link Principal} and check
 * the route's permission.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyGuard,
    private readonly sessions: SessionGuard,
  ) {}

  canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.header('authorization') !== undefined) {
      return this.apiKeys.canActivate(context);
    }
    if (request.cookies?.[SESSION_COOKIE] !== undefined) {
      return this.sessions.canActivate(context);
    }
    return Promise.reject(new ApiError(ErrorCode.Unauthorized, 'missing credential: Authorization: Bearer <api key>, or the portal session cookie'));
  }
}
