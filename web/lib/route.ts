import "server-only";
import type { NextRequest } from "next/server";
import { PortalError, type ErrorCode } from "./errors";
import { requirePermission, type Permission } from "./permissions";
import { currentSession } from "./session";

/**
 * The HTTP status a route handler answers for each PortalError: the API's own for the statuses it
 * maps (lib/api-client.ts: 401, 403, 404, 409, 429), 400 for the route's own query, 502 when the
 * API failed or broke the contract, 500 for the portal's configuration.
 */
const HTTP_STATUS: Record<ErrorCode, number> = {
  config_missing: 500,
  config_invalid: 500,
  api_unreachable: 502,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  throttled: 429,
  bad_response: 502,
  api_error: 502,
  bad_request: 400,
};

/**
 * Wraps a GET route handler (a download, not a page): requires a signed-in session whose role
 * grants `permission`, then answers what `handle` answers. A PortalError becomes its HTTP status
 * with the message (and the API's request id) as plain text; anything else propagates.
 */
export function defineRoute<Params extends Record<string, string>>(
  options: { permission: Permission },
  handle: (request: NextRequest, params: Params) => Promise<Response>,
) {
  return async function GET(request: NextRequest, context: { params: Promise<Params> }): Promise<Response> {
    try {
      requirePermission((await currentSession()).role, options.permission);
      return await handle(request, await context.params);
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      const text = err.requestId ? `${err.message} (request ${err.requestId})` : err.message;
      return new Response(`${text}\n`, { status: HTTP_STATUS[err.code], headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
    }
  };
}
