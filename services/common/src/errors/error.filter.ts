import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isConcurrentChange } from '../database/conflict.js';
import { isDatabaseUnavailable } from '../database/unavailable.js';
import { requestIdOf } from '../http/request-id.middleware.js';
import { ApiError } from './api-error.js';
import { ERROR_STATUS, ErrorCode, errorCodeForStatus } from './error-code.js';
import { errorDocUrl } from './error-docs.js';
import type { ErrorBodyDto } from './error-body.dto.js';

/** Seconds a client should wait before retrying while PostgreSQL is unreachable. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Answers every exception of an HTTP request with `{code, message, request_id, doc_url}`:
 * an {@link ApiError} with its own code; a framework HttpException (unknown route, body
 * parser, validation pipe) with the code of its status; PostgreSQL being unreachable with 503
 * `unavailable` and Retry-After; a concurrent change that came first (a unique key taken, a
 * serialization failure or deadlock) with 409 `conflict`; anything else with 500 `internal_error`, logged with its
 * stack and never shown to the client.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(caught: unknown, host: ArgumentsHost): void {
    const exception = isDatabaseUnavailable(caught)
      ? new ApiError(ErrorCode.Unavailable, 'database unavailable, retry later', {
          retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
          cause: caught,
        })
      : isNulCharacterRejected(caught)
        ? new ApiError(ErrorCode.InvalidBody, 'text must not contain NUL characters (\\u0000)', { cause: caught })
        : isConcurrentChange(caught)
          ? new ApiError(ErrorCode.Conflict, 'a concurrent change to the same resource came first; read it again and retry', { cause: caught })
          : caught;
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const { status, body } = errorBodyOf(exception, request, response);
    if (status >= 500) {
      const context = { msg: body.message, request_id: body.request_id, method: request.method, path: request.path };
      if (exception instanceof ApiError) {
        this.logger.warn({ ...context, cause: String((exception.cause as Error | undefined)?.message ?? exception.cause) });
      } else {
        this.logger.error(context, exception instanceof Error ? exception.stack : String(exception));
      }
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    sendErrorBody(response, exception, status, body);
  }
}

/**
 * The status and `{code, message, request_id, doc_url}` body of an exception: an
 * {@link ApiError} with its own code, a framework HttpException with the code of its status,
 * anything else 500 `internal_error` with a message that shows nothing of it.
 */
export function errorBodyOf(exception: unknown, request: Request, response: Response): { status: number; body: ErrorBodyDto } {
  const requestId = requestIdOf(response);
  const body = (code: ErrorCode, message: string): ErrorBodyDto => ({ code, message, request_id: requestId, doc_url: errorDocUrl(request, code) });
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), body: body(exception.code, exception.message) };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: body(errorCodeForStatus(status), httpMessage(exception)) };
  }
  return { status: ERROR_STATUS[ErrorCode.Internal], body: body(ErrorCode.Internal, 'internal error') };
}

/**
 * Answers an {@link ApiError} from plain Express middleware (which runs outside Nest's
 * exception filters, e.g. before a body parser): the same status, body and Retry-After header
 * as {@link ErrorFilter} gives it.
 */
export function sendApiError(request: Request, response: Response, error: ApiError): void {
  const { status, body } = errorBodyOf(error, request, response);
  sendErrorBody(response, error, status, body);
}

function sendErrorBody(response: Response, exception: unknown, status: number, body: ErrorBodyDto): void {
  if (exception instanceof ApiError && exception.retryAfterSeconds !== undefined) {
    response.setHeader('Retry-After', String(exception.retryAfterSeconds));
  }
  response.status(status).json(body);
}

/** The message of a framework exception; validation pipes give a list of messages, joined here. */
function httpMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'object' && response !== null && 'message' in response) {
    const { message } = response as { message: unknown };
    if (Array.isArray(message)) {
      return message.join('; ');
    }
    if (typeof message === 'string') {
      return message;
    }
  }
  return exception.message;
}

/**
 * PostgreSQL refused a NUL character in text or jsonb (SQLSTATE 22021 invalid byte sequence,
 * 22P05 untranslatable character; PostgreSQL manual, Appendix A): the client's input, a 400.
 */
function isNulCharacterRejected(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === '22021' && String((error as Error).message).includes('0x00')) || code === '22P05';
}
