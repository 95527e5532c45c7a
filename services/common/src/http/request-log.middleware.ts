import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { requestIdOf } from './request-id.middleware.js';

const logger = new Logger('http');

/**
 * Which finished requests get a log line: `every` one, or only the `unusual` ones (answered with
 * a status of 400 or more, or slower than {@link SLOW_REQUEST_MS}). A service whose requests are
 * a fleet's periodic telemetry (ingest) logs the unusual ones: a line per agent request would be
 * most of its work and its log; the OpenTelemetry HTTP metrics count every request
 * (docs/observability.md "Request logs").
 */
export type RequestLogMode = 'every' | 'unusual';

/** Milliseconds from a request's arrival to its answer above which `unusual` logs it. */
const SLOW_REQUEST_MS = 1_000;

/**
 * Express middleware: one structured log line per finished request (all, or the unusual ones,
 * {@link RequestLogMode}) with method, path, status, duration (milliseconds) and request id.
 * Query strings are left out.
 */
export function requestLogMiddleware(mode: RequestLogMode = 'every'): RequestHandler {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    response.once('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (mode === 'unusual' && response.statusCode < 400 && durationMs <= SLOW_REQUEST_MS) {
        return;
      }
      logger.log({
        msg: 'request',
        request_id: requestIdOf(response),
        method: request.method,
        path: request.path,
        status: response.statusCode,
        duration_ms: durationMs,
      });
    });
    next();
  };
}
