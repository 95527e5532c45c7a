import type { components } from './generated/openapi.js';

/** The error body every 4xx/5xx answer of the api carries. */
export type ErrorBody = components['schemas']['ErrorBodyDto'];
/** The api's error codes (the ErrorCode enum of the OpenAPI document). */
export type ErrorCode = ErrorBody['code'];

/**
 * An error answer of the api: the status, the error body's code and message, the request id
 * to quote in a report, the documentation link of the code, and the raw Response.
 */
export class TierwiseApiError extends Error {
  override readonly name: string = 'TierwiseApiError';
  readonly status: number;
  /** The error code, or 'unknown' when the answer had no error body (e.g. a proxy's page). */
  readonly code: ErrorCode | 'unknown';
  /** The request id (body request_id, else the x-request-id header), or null. */
  readonly requestId: string | null;
  readonly docUrl: string | null;
  readonly response: Response;

  constructor(response: Response, body: Partial<ErrorBody> | undefined) {
    super(body?.message ?? `HTTP ${response.status} ${response.statusText}`);
    this.status = response.status;
    this.code = body?.code ?? 'unknown';
    this.requestId = body?.request_id ?? response.headers.get('x-request-id');
    this.docUrl = body?.doc_url ?? null;
    this.response = response;
  }
}

/** 400: a malformed parameter or body. */
export class BadRequestError extends TierwiseApiError {
  override readonly name = 'BadRequestError';
}
/** 401: no API key, or an unknown or revoked one. */
export class AuthenticationError extends TierwiseApiError {
  override readonly name = 'AuthenticationError';
}
/** 403: the key's scope or role does not allow the operation. */
export class PermissionDeniedError extends TierwiseApiError {
  override readonly name = 'PermissionDeniedError';
}
/** 404: no such route or resource in the key's tenant. */
export class NotFoundError extends TierwiseApiError {
  override readonly name = 'NotFoundError';
}
/** 409: conflicts with the current state, or the Idempotency-Key is in use. */
export class ConflictError extends TierwiseApiError {
  override readonly name = 'ConflictError';
}
/** 422: well-formed but not processable, e.g. an Idempotency-Key reused with another body. */
export class UnprocessableEntityError extends TierwiseApiError {
  override readonly name = 'UnprocessableEntityError';
}
/** 429: rate limited; `retryAfterSeconds` is the Retry-After header. */
export class RateLimitError extends TierwiseApiError {
  override readonly name = 'RateLimitError';
  readonly retryAfterSeconds: number | null;

  constructor(response: Response, body: Partial<ErrorBody> | undefined) {
    super(response, body);
    const retryAfter = Number(response.headers.get('retry-after'));
    this.retryAfterSeconds = Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter : null;
  }
}
/** 5xx: the api failed; quote `requestId` when reporting it. */
export class InternalServerError extends TierwiseApiError {
  override readonly name = 'InternalServerError';
}

const BY_STATUS: Readonly<Record<number, typeof TierwiseApiError>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error of a non-2xx answer: the class of its status (5xx: InternalServerError; other: TierwiseApiError). */
export function errorFromResponse(response: Response, body: unknown): TierwiseApiError {
  const errorBody = typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>) : undefined;
  const ErrorClass = BY_STATUS[response.status] ?? (response.status >= 500 ? InternalServerError : TierwiseApiError);
  return new ErrorClass(response, errorBody);
}
