import { HttpException } from '@nestjs/common';
import { ERROR_STATUS, type ErrorCode } from './error-code.js';

export interface ApiErrorOptions {
  /** Sets `Retry-After` (RFC 9110 section 10.2.3), e.g. on 503. */
  retryAfterSeconds?: number;
  /** The underlying failure: logged for 5xx, never shown to the client. */
  cause?: unknown;
}

/**
 * The exception services and guards throw: answered as `{code, message, request_id}` with the
 * code's HTTP status by {@link ErrorFilter}.
 *
 * @param code the error code (decides the status).
 * @param message a sentence naming the problem, safe to show to the client.
 */
export class ApiError extends HttpException {
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, ERROR_STATUS[code], { cause: options.cause });
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
