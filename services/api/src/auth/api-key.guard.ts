import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, bearerCredential, ErrorCode, sha256Hex } from '@tierwise/common';
import { ApiKeyLookupRepository } from './api-key-lookup.repository.js';
import { assertPermission, type Permission } from '../identity/permission.js';
import { type AuthenticatedRequest, apiKeyPrincipal } from '../identity/principal.js';

/** Metadata key of the permission a route needs (set by `@Authenticated`). */
export const PERMISSION_METADATA = 'tierwise:permission';

/**
 * Authenticates `Authorization: Bearer <api key>` (SHA-256 looked up by authenticate_api_key),
 * puts the key's {@link Principal} on the request and checks the route's permission:
 * 401 `unauthorized` without a live key, 403 `forbidden` without the permission.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyLookupRepository,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const permission = this.reflector.getAllAndOverride<Permission>(PERMISSION_METADATA, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = bearerCredential(request.header('authorization'));
    if (!key) {
      throw new ApiError(ErrorCode.Unauthorized, 'missing Authorization: Bearer <api key>');
    }
    const found = await this.apiKeys.authenticate(sha256Hex(key));
    if (!found) {
      throw new ApiError(ErrorCode.Unauthorized, 'API key is unknown or revoked');
    }
    const principal = apiKeyPrincipal(found);
    assertPermission(principal, permission);
    request.principal = principal;
    return true;
  }
}
