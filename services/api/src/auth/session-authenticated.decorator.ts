import { applyDecorators, createParamDecorator, type ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import type { PortalSession } from '../identity/session.service.js';
import { SESSION_SCHEME } from './authenticated.decorator.js';
import { SessionGuard, type SessionRequest } from './session.guard.js';

/**
 * Marks a route that only a logged-in portal user can call (it acts on the session itself:
 * log out, switch organization); documents the cookie scheme and the 401/403 answers.
 */
export const SessionAuthenticated = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseGuards(SessionGuard),
    ApiCookieAuth(SESSION_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'no live session cookie' }),
    ApiForbiddenResponse({ type: ErrorBodyDto, description: 'missing or invalid x-csrf-token' }),
  );

/** The portal session of a request that passed {@link SessionGuard}. */
export const CurrentSession = createParamDecorator(
  (_: unknown, context: ExecutionContext): PortalSession => context.switchToHttp().getRequest<SessionRequest>().portalSession,
);
