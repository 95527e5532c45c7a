import "server-only";
import { cookies } from "next/headers";
import { parseSetCookie } from "set-cookie-parser";
import { z } from "zod";
import { ApiErrorBody } from "./api-schemas";
import { readApiConfig } from "./config";
import { PortalError, type ErrorCode } from "./errors";
import { SESSION_COOKIE } from "./routes";

/** Milliseconds the portal waits for one API response before showing api_unreachable. */
const API_TIMEOUT_MS = 10_000;

/**
 * The API's cookies the portal keeps for the browser, on the portal's own origin
 * (docs/accounts.md): tw_session (the session token) and tw_csrf (csrf-csrf's signed
 * double-submit cookie). The browser never talks to the API: the portal forwards them.
 */
export const API_COOKIES = [SESSION_COOKIE, "tw_csrf"] as const;
/** Header the API checks against tw_csrf on cookie-authenticated POST/PUT/PATCH/DELETE. */
const CSRF_HEADER = "x-csrf-token";

const STATUS_CODES: Record<number, ErrorCode> = { 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 429: "throttled" };

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Options of {@link apiRequest}. */
export interface ApiRequestOptions<T> {
  /** zod schema of the expected 2xx body (z.undefined() for 204 No Content). */
  schema: z.ZodType<T>;
  /** JSON request body. */
  body?: unknown;
  /** The session's CSRF token, required by the API for cookie-authenticated changes. */
  csrfToken?: string;
  /** Extra request headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
}

/** The Cookie header carrying the browser's API cookies, or undefined when it has none. */
async function cookieHeader(): Promise<string | undefined> {
  const jar = await cookies();
  const pairs = API_COOKIES.flatMap((name) => {
    const value = jar.get(name)?.value;
    return value ? [`${name}=${encodeURIComponent(value)}`] : [];
  });
  return pairs.length ? pairs.join("; ") : undefined;
}

/**
 * Copies the API's Set-Cookie headers for {@link API_COOKIES} onto the portal's response:
 * httpOnly, SameSite=Lax, Secure when the portal is served over https, with the API's expiry
 * (an expired cookie deletes it). Only Server Actions and Route Handlers may set cookies; during
 * a page render Next.js throws and the browser keeps its cookies (the API reuses a CSRF cookie
 * that is still valid, so nothing is lost).
 */
async function relayCookies(res: Response): Promise<void> {
  const set = parseSetCookie(res.headers.getSetCookie()).filter((c) => (API_COOKIES as readonly string[]).includes(c.name));
  if (!set.length) return;
  const jar = await cookies();
  const secure = process.env.TIERWISE_WEB_URL?.startsWith("https:") ?? false;
  try {
    for (const c of set) {
      const expired = !c.value || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired) jar.delete(c.name);
      else jar.set(c.name, c.value, { httpOnly: true, sameSite: "lax", secure, path: "/", expires: c.expires });
    }
  } catch {
    // Rendering a Server Component: cookies are read-only there (see above).
  }
}

/** What {@link send} sends besides the method and path. */
interface SendOptions {
  /** The Accept header: the media type expected of a 2xx answer. */
  accept: string;
  body?: unknown;
  csrfToken?: string;
  headers?: Record<string, string>;
}

/**
 * Sends one request to the API as the signed-in user: forwards the browser's API cookies (session,
 * CSRF), sends the CSRF token when given, relays the cookies the API sets.
 * @returns the 2xx response, its body unread.
 * @throws PortalError api_unreachable (network/timeout), unauthorized (401: no or ended session),
 *   forbidden (403), not_found (404), conflict (409), throttled (429), api_error (other non-2xx;
 *   message and request_id from the API's error body, which names the bad field of a 400),
 *   config_* (see readApiConfig).
 */
async function send(method: Method, path: string, options: SendOptions): Promise<Response> {
  const { baseUrl } = await readApiConfig();
  const headers: Record<string, string> = { Accept: options.accept, ...options.headers };
  const cookie = await cookieHeader();
  if (cookie) headers.Cookie = cookie;
  if (options.csrfToken) headers[CSRF_HEADER] = options.csrfToken;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: "no-store",
      redirect: "manual",
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new PortalError("api_unreachable", `The Tierwise API at ${baseUrl} did not answer (${cause}).`);
  }
  await relayCookies(res);
  if (!res.ok) {
    const error = ApiErrorBody.safeParse(await res.json().catch(() => undefined));
    throw new PortalError(
      STATUS_CODES[res.status] ?? "api_error",
      error.success ? error.data.message : `HTTP ${res.status} from ${method} ${path}`,
      error.success ? (error.data.request_id ?? null) : null,
    );
  }
  return res;
}

/**
 * Calls the Tierwise API as the signed-in user (see {@link send}) and validates the JSON body.
 *
 * @param path  API path with query, e.g. "/v1/volumes?limit=50".
 * @throws PortalError as {@link send}, and bad_response (body not JSON or not matching `schema`).
 */
export async function apiRequest<T>(method: Method, path: string, options: ApiRequestOptions<T>): Promise<T> {
  const { schema, ...rest } = options;
  const res = await send(method, path, { ...rest, accept: "application/json" });
  const body: unknown = res.status === 204 ? undefined : await res.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new PortalError("bad_response", `${method} ${path} returned an unexpected body:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * GETs a document that is not JSON (e.g. text/plain) from the API as the signed-in user, for a
 * route handler to stream on with the API's headers.
 * @param accept  the media type asked for, e.g. "text/plain".
 * @returns the 2xx response, its body unread.
 * @throws PortalError as {@link send}.
 */
export function getDocument(path: string, accept: string): Promise<Response> {
  return send("GET", path, { accept });
}

/**
 * GETs `path` from the Tierwise API as the signed-in user and validates the JSON body.
 * @throws PortalError as {@link apiRequest}.
 */
export function getJson<T>(path: string, schema: z.ZodType<T>): Promise<T> {
  return apiRequest("GET", path, { schema });
}
