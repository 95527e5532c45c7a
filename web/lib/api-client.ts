import "server-only";
import { z } from "zod";
import { ApiErrorBody } from "./api-schemas";
import { readApiConfig } from "./config";
import { PortalError, type ErrorCode } from "./errors";

/** Milliseconds the portal waits for one API response before showing api_unreachable. */
const API_TIMEOUT_MS = 10_000;

const STATUS_CODES: Record<number, ErrorCode> = { 401: "unauthorized", 403: "forbidden", 404: "not_found" };

/**
 * GETs `path` from the Tierwise API with the portal's API key and validates the JSON body.
 *
 * @param path  API path with query, e.g. "/v1/volumes?limit=50".
 * @param schema  zod schema of the expected 200 body.
 * @throws PortalError api_unreachable (network/timeout), unauthorized (401), forbidden (403),
 *   not_found (404), api_error (other non-2xx; message and request_id from the API's error
 *   body), bad_response (body not JSON or not matching `schema`), config_* (see readApiConfig).
 */
export async function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  const { baseUrl, apiKey } = await readApiConfig();
  const url = `${baseUrl}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: "application/json" },
      cache: "no-store",
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new PortalError("api_unreachable", `The Tierwise API at ${baseUrl} did not answer (${cause}).`);
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const error = ApiErrorBody.safeParse(body);
    throw new PortalError(
      STATUS_CODES[res.status] ?? "api_error",
      error.success ? `${error.data.message} (HTTP ${res.status}, ${error.data.code})` : `HTTP ${res.status} from GET ${path}`,
      error.success ? (error.data.request_id ?? null) : null,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new PortalError("bad_response", `GET ${path} returned an unexpected body:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
