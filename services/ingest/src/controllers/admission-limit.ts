import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, ErrorCode, sendApiError } from '@tierwise/common';
import type { NextFunction, Request, Response } from 'express';
import { MAX_OPEN_TELEMETRY_REQUESTS, RETRY_AFTER_BUSY_SECONDS } from '../ingest.constants.js';

/** The routes whose bodies are telemetry batches (the policy long-poll is not limited here). */
const TELEMETRY_PATHS = ['/v1/metrics', '/v1/refs'];

/**
 * Registers the load shedding of telemetry requests; call it before the body parsers. At most
 * `limit` telemetry requests are open at once (from before the body is read until the response
 * closes, answered or aborted); one more is answered 503 `unavailable` with Retry-After
 * {@link RETRY_AFTER_BUSY_SECONDS} and its body is not parsed, so ingest's memory stays bounded
 * whatever the agents send (they back off and spool).
 */
export function useAdmissionLimit(app: NestExpressApplication, limit = MAX_OPEN_TELEMETRY_REQUESTS): void {
  let open = 0;
  app.use(TELEMETRY_PATHS, (request: Request, response: Response, next: NextFunction) => {
    if (open >= limit) {
      const error = new ApiError(ErrorCode.Unavailable, `ingest is at capacity (${limit} telemetry requests are open), retry later`, {
        retryAfterSeconds: RETRY_AFTER_BUSY_SECONDS,
      });
      sendApiError(request, response, error);
      return;
    }
    open += 1;
    response.once('close', () => {
      open -= 1;
    });
    next();
  });
}
