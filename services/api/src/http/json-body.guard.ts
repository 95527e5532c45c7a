import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request } from 'express';

/**
 * Refuses a request body that is not `application/json` (415 `unsupported_media_type`), before the
 * route runs. On the routes without a session or credential yet (sign-up, login, reset), this is
 * the login-CSRF defence (issue 16, finding 11): a page on another site can post a form
 * (urlencoded, multipart, text/plain) across origins, but not JSON without the CORS preflight the
 * api never grants. Requests without a body (or an empty one) pass.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (hasBody && !request.is('application/json')) {
      throw new ApiError(ErrorCode.UnsupportedMediaType, `request bodies here must be application/json, not ${request.headers['content-type'] ?? 'untyped'}`);
    }
    return true;
  }
}
