import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, bearerCredential, ErrorCode, sha256Hex } from '@tierwise/common';
import type { Request } from 'express';
import { type ApiKeyPrincipal, ApiKeyRepository } from '../repositories/api-key.repository.js';
import { type Permission, SCOPE_PERMISSIONS } from './permission.js';

/** Metadata key of the permission a route needs (set by `@Authenticated`). */
export const PERMISSION_METADATA = 'tierwise:permission';

/** A request that passed {@link ApiKeyGuard}. */
export interface AuthenticatedRequest extends Request {
  principal: ApiKeyPrincipal;
}

/**
 * Authenticates `Authorization: Bearer <api key>` (SHA-256 looked up by authenticate_api_key)
 * and checks that the key's scope grants the route's permission: 401 `unauthorized` without
 * a live key, 403 `forbidden` without the permission.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const permission = this.reflector.getAllAndOverride<Permission>(PERMISSION_METADATA, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = bearerCredential(request.header('authorization'));
    if (!key) {
      throw new ApiError(ErrorCode.Unauthorized, 'missing Authorization: Bearer <api key>');
    }
    const principal = await this.apiKeys.authenticate(sha256Hex(key));
    if (!principal) {
      throw new ApiError(ErrorCode.Unauthorized, 'API key is unknown or revoked');
    }
    if (!SCOPE_PERMISSIONS[principal.scope]?.includes(permission)) {
      throw new ApiError(ErrorCode.Forbidden, `API key scope '${principal.scope}' does not grant ${permission}`);
    }
    request.principal = principal;
    return true;
  }
}
