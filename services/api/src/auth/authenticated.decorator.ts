import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { ApiKeyGuard, PERMISSION_METADATA } from './api-key.guard.js';
import type { Permission } from './permission.js';
import type { AuthenticatedRequest, Principal } from './principal.js';

/** Name of the OpenAPI security scheme: `Authorization: Bearer <api key>`. */
export const API_KEY_SCHEME = 'api-key';

/**
 * Marks a route as needing an API key whose scope grants `permission`; documents the
 * scheme and the 401/403 answers in the OpenAPI document.
 */
export const Authenticated = (options: { permission: Permission }): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(PERMISSION_METADATA, options.permission),
    UseGuards(ApiKeyGuard),
    ApiBearerAuth(API_KEY_SCHEME),
    ApiUnauthorizedResponse({ type: ErrorBodyDto, description: 'missing, unknown or revoked credential' }),
    ApiForbiddenResponse({ type: ErrorBodyDto, description: `the caller's role or scope does not grant ${options.permission}` }),
  );

/** The authenticated caller of the request (its tenant scopes every query). */
export const Auth = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal => context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
