import { HttpStatus } from '@nestjs/common';

/** Machine-readable error codes of the error body `{code, message, request_id}` (every service). */
export enum ErrorCode {
  BadRequest = 'bad_request',
  InvalidBody = 'invalid_body',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  Conflict = 'conflict',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  TooManyRequests = 'too_many_requests',
  Unavailable = 'unavailable',
  Internal = 'internal_error',
}

/** HTTP status of each code. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, HttpStatus>> = {
  [ErrorCode.BadRequest]: HttpStatus.BAD_REQUEST,
  [ErrorCode.InvalidBody]: HttpStatus.BAD_REQUEST,
  [ErrorCode.Unauthorized]: HttpStatus.UNAUTHORIZED,
  [ErrorCode.Forbidden]: HttpStatus.FORBIDDEN,
  [ErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [ErrorCode.Conflict]: HttpStatus.CONFLICT,
  [ErrorCode.PayloadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [ErrorCode.UnsupportedMediaType]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [ErrorCode.TooManyRequests]: HttpStatus.TOO_MANY_REQUESTS,
  [ErrorCode.Unavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [ErrorCode.Internal]: HttpStatus.INTERNAL_SERVER_ERROR,
};

/** The code for an HTTP status raised by the framework (unknown route, body parser, validation pipe). */
export function errorCodeForStatus(status: number): ErrorCode {
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find(
    (candidate) => candidate !== ErrorCode.InvalidBody && ERROR_STATUS[candidate] === status,
  );
  if (code) {
    return code;
  }
  return status >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest;
}
