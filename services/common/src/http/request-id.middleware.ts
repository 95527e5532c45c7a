import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** Header carrying the request id, in both directions. */
export const REQUEST_ID_HEADER = 'x-request-id';

const ACCEPTED_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Express middleware: adopts the client's `x-request-id` when it is 1-128 characters of
 * `[A-Za-z0-9_.:-]`, else makes a UUID; stores it in `res.locals.requestId` and echoes it in the
 * response header, so logs, error bodies and clients name the same request.
 */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const offered = request.header(REQUEST_ID_HEADER);
  const requestId = offered && ACCEPTED_REQUEST_ID.test(offered) ? offered : randomUUID();
  response.locals.requestId = requestId;
  response.setHeader(REQUEST_ID_HEADER, requestId);
  next();
}

/** The request id {@link requestIdMiddleware} gave this response ('unknown' if it did not run). */
export function requestIdOf(response: Response): string {
  const requestId: unknown = response.locals?.requestId;
  return typeof requestId === 'string' ? requestId : 'unknown';
}
