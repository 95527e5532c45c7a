import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from './request-id.middleware.js';

const logger = new Logger('http');

/**
 * Express middleware: one structured log line per finished request with method, path,
 * status, duration (milliseconds) and request id. Query strings are left out.
 */
export function requestLogMiddleware(request: Request, response: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  response.once('finish', () => {
    logger.log({
      msg: 'request',
      request_id: requestIdOf(response),
      method: request.method,
      path: request.path,
      status: response.statusCode,
      duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
    });
  });
  next();
}
