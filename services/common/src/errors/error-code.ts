import { HttpStatus } from '@nestjs/common';

/**
 * Machine-readable error codes of the error body `{code, message, request_id, doc_url}` (every
 * service). The OpenAPI document carries this enum as the `ErrorCode` schema; each code is
 * explained at `doc_url` (GET /docs/errors#<code>).
 */
export enum ErrorCode {
  BadRequest = 'bad_request',
  InvalidBody = 'invalid_body',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  Conflict = 'conflict',
  IdempotencyKeyInUse = 'idempotency_key_in_use',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  TooManyRequests = 'too_many_requests',
  Unprocessable = 'unprocessable',
  IdempotencyKeyReused = 'idempotency_key_reused',
  Unavailable = 'unavailable',
  AgentRevoked = 'agent_revoked',
  EnrollmentTokenUsed = 'enrollment_token_used',
  EnrollmentTokenExpired = 'enrollment_token_expired',
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
  [ErrorCode.IdempotencyKeyInUse]: HttpStatus.CONFLICT,
  [ErrorCode.PayloadTooLarge]: HttpStatus.PAYLOAD_TOO_LARGE,
  [ErrorCode.UnsupportedMediaType]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [ErrorCode.Unprocessable]: HttpStatus.UNPROCESSABLE_ENTITY,
  [ErrorCode.IdempotencyKeyReused]: HttpStatus.UNPROCESSABLE_ENTITY,
  [ErrorCode.TooManyRequests]: HttpStatus.TOO_MANY_REQUESTS,
  [ErrorCode.Unavailable]: HttpStatus.SERVICE_UNAVAILABLE,
  [ErrorCode.AgentRevoked]: HttpStatus.UNAUTHORIZED,
  [ErrorCode.EnrollmentTokenUsed]: HttpStatus.CONFLICT,
  [ErrorCode.EnrollmentTokenExpired]: HttpStatus.GONE,
  [ErrorCode.Internal]: HttpStatus.INTERNAL_SERVER_ERROR,
};

/** What each code means and what the client can do about it (the page at doc_url). */
export const ERROR_DESCRIPTIONS: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.BadRequest]: 'A query or path parameter is malformed (the message names it). Fix the request; retrying it unchanged fails again.',
  [ErrorCode.InvalidBody]: 'The request body does not match its schema (the message names the field). Fix the body.',
  [ErrorCode.Unauthorized]: 'No credential, or an unknown, revoked or expired one (or a wrong e-mail address or password at login). Send `Authorization: Bearer <api key>` with a live key, or log in again for a portal session cookie.',
  [ErrorCode.Forbidden]: "The credential's role or scope does not allow this operation (a read key or a viewer cannot change anything; the audit log, API keys and members need an admin; the owner role needs an owner), a portal session's change lacks its x-csrf-token, or the e-mail address is not verified yet.",
  [ErrorCode.NotFound]: 'The route, or the resource it names, does not exist in your tenant.',
  [ErrorCode.Conflict]: 'The change conflicts with the current state (the message says which).',
  [ErrorCode.IdempotencyKeyInUse]: 'A request with the same Idempotency-Key is still being processed. Retry after it finished.',
  [ErrorCode.PayloadTooLarge]: 'The request body is larger than the service accepts.',
  [ErrorCode.UnsupportedMediaType]: 'The Content-Type is not one the route accepts.',
  [ErrorCode.Unprocessable]: 'The request is well-formed but cannot be carried out (the message says why).',
  [ErrorCode.IdempotencyKeyReused]: 'The Idempotency-Key was used before with another method, path or body. Use a new key for a new request.',
  [ErrorCode.TooManyRequests]: 'Too many requests (for this credential, or login attempts). Wait the seconds of the Retry-After header; RateLimit-* headers tell the budget.',
  [ErrorCode.Unavailable]: 'A backing service (database, broker) is unreachable. Retry after the seconds of the Retry-After header.',
  [ErrorCode.AgentRevoked]: "The agent credential was revoked by an admin (DELETE /v1/agents/{agentId}): its batches and reports are refused and nothing of them is kept. Install the agent again with a new enrollment token.",
  [ErrorCode.EnrollmentTokenUsed]: 'The enrollment token was used already (a token enrolls one agent). Create a new one (POST /v1/enrollment-tokens); an installed agent keeps its credential, so re-running the installer on it needs no token.',
  [ErrorCode.EnrollmentTokenExpired]: 'The enrollment token expired (default lifetime 24 h). Create a new one (POST /v1/enrollment-tokens).',
  [ErrorCode.Internal]: 'An unexpected error; it is logged with the request id. Report the request_id if it persists.',
};

/** The code for an HTTP status raised by the framework (unknown route, body parser, validation pipe). */
export function errorCodeForStatus(status: number): ErrorCode {
  const code = (Object.keys(ERROR_STATUS) as ErrorCode[]).find((candidate) => ERROR_STATUS[candidate] === status);
  if (code) {
    return code;
  }
  return status >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest;
}
