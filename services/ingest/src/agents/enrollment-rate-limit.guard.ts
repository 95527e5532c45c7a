import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request } from 'express';

/** The one route of the gateway a caller without a credential can reach. */
const ENROLL_PATH = '/v1/agents/enroll';

/**
 * Rate limit of enrollment on the agent gateway, per client address (@nestjs/throttler, fixed
 * window of a minute, TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE): the other gateway routes
 * authenticate an agent credential first and are bounded by the telemetry admission. The request
 * past the limit gets 429 `too_many_requests` with Retry-After (seconds), before any database work.
 */
@Injectable()
export class EnrollmentRateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return context.switchToHttp().getRequest<Request>().path !== ENROLL_PATH;
  }

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    return `ip:${(request as unknown as Request).ip}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ApiError(ErrorCode.TooManyRequests, `at most ${detail.limit} enrollments per minute from one address; retry in ${detail.timeToBlockExpire} s`, {
      retryAfterSeconds: detail.timeToBlockExpire,
    });
  }
}
