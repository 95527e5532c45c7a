import { z } from "zod";

/**
 * Every failure the portal can show, as one enum (the page picks its title and advice
 * from the code; the message carries the specifics).
 *
 * - config_missing / config_invalid: a server environment variable is absent or malformed;
 *   the message names the variable.
 * - api_unreachable: the Tierwise API did not answer (connection refused, timeout).
 * - unauthorized: no session, or the API ended it (HTTP 401); pages redirect to /login.
 * - forbidden: the caller's role lacks the permission the route names (or the API said 403).
 * - not_found: the API has no such resource (HTTP 404).
 * - conflict: the change clashes with the current state (HTTP 409, e.g. already a member).
 * - throttled: too many attempts (HTTP 429); the message says when to retry.
 * - bad_response: the API answered with a body that does not match the contract.
 * - api_error: any other API error (4xx/5xx with {code, message, request_id}).
 * - bad_request: the page's own query parameters are invalid.
 */
export const ErrorCode = z.enum([
  "config_missing",
  "config_invalid",
  "api_unreachable",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "throttled",
  "bad_response",
  "api_error",
  "bad_request",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * An expected failure with a code from {@link ErrorCode}, a human-readable message and,
 * when the API produced it, the API's request id (for support).
 */
export class PortalError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = "PortalError";
  }
}
