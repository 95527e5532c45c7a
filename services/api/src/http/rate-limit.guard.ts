import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { ApiError, bearerCredential, ErrorCode, sha256Hex } from '@tierwise/common';
import type { Request, Response } from 'express';
import { SESSION_COOKIE } from '../identity/session-cookies.js';

/** The rate-limit response headers (draft-ietf-httpapi-ratelimit-headers, the RateLimit-* fields). */
export const RATE_LIMIT_HEADERS = { limit: 'RateLimit-Limit', remaining: 'RateLimit-Remaining', reset: 'RateLimit-Reset' } as const;

/** Only the public API is limited; health checks, the OpenAPI document and the error reference are not. */
const LIMITED_PREFIX = '/v1/';

/**
 * Rate limit of /v1 per credential (@nestjs/throttler, fixed window): a request with a Bearer
 * credential counts against that credential (its SHA-256), one with a portal session cookie
 * against that session, one with neither against the client address, over every route
 * together. Every answer carries RateLimit-Limit (requests per
 * window), RateLimit-Remaining and RateLimit-Reset (seconds until the window ends); the
 * request past the limit gets 429 `too_many_requests` with Retry-After (seconds).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<Request>().path.startsWith(LIMITED_PREFIX);
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const http = request as unknown as Request;
    const credential = bearerCredential(http.header('authorization'));
    if (credential) {
      return `key:${sha256Hex(credential)}`;
    }
    const session: unknown = http.cookies?.[SESSION_COOKIE];
    return typeof session === 'string' ? `session:${sha256Hex(session)}` : `ip:${http.ip}`;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const response = context.switchToHttp().getResponse<Response>();
    response.setHeader(RATE_LIMIT_HEADERS.limit, detail.limit);
    response.setHeader(RATE_LIMIT_HEADERS.remaining, 0);
    response.setHeader(RATE_LIMIT_HEADERS.reset, detail.timeToBlockExpire);
    throw new ApiError(ErrorCode.TooManyRequests, `rate limit of ${detail.limit} requests per ${detail.ttl / 1000} s exceeded; retry in ${detail.timeToBlockExpire} s`, {
      retryAfterSeconds: detail.timeToBlockExpire,
    });
  }
}
