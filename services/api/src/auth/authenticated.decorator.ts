import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { PERMISSION_METADATA } from './api-key.guard.js';
import { CredentialGuard } from './credential.guard.js';
import type { Permission } from '../identity/permission.js';
import type { AuthenticatedRequest, Principal } from '../identity/principal.js';

/** Name of the OpenAPI security scheme: `Authorization: Bearer <api key>`. */
export const API_KEY_SCHEME = 'api-key';

/** Name of the OpenAPI security scheme of a portal session: the `tw_session` cookie (plus x-csrf-token on changes). */
export const SESSION_SCHEME = 'session';

/**
 * Marks a route as needing an API key or a portal session whose principal is granted
 * `permission`; documents both schemes (either one) and the 401/403 answers in the OpenAPI document.
 */
export const Authenticated = (options: { permission: Permission }): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(PERMISSION_METADATA, options.permission),
    UseGuards(CredentialGuard),
    ApiBearerAuth(API_KEY_SCHEME),
    ApiCookieAuth(SESSION_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'missing, unknown or revoked credential' }),
    ApiForbiddenResponse({ type: ErrorBodyDto, description: `the caller's role or scope does not grant ${options.permission}` }),
  );

/** The authenticated caller of the request (its tenant scopes every query). */
export const Auth = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
