import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { z } from "zod";
import { apiRequest } from "./api-client";
import { PortalError } from "./errors";
import { Role } from "./permissions";
import { PATH_HEADER, SESSION_COOKIE } from "./routes";

const Organization = z.object({ id: z.uuid(), name: z.string(), role: Role });

/** GET /v1/auth/session: who is signed in, in which organization, and the CSRF token for changes. */
export const SessionInfo = z.object({
  user: z.object({ id: z.uuid(), email: z.string(), display_name: z.string() }),
  organization: Organization,
  organizations: z.array(Organization),
  csrf_token: z.string().min(1),
  expires_at: z.iso.datetime({ offset: true }),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** Who a portal request acts as: the signed-in user in one organization, with its role there. */
export interface Session {
  user: SessionInfo["user"];
  organization: SessionInfo["organization"];
  organizations: SessionInfo["organizations"];
  role: Role;
  /** Sent as x-csrf-token with every change this request makes (docs/accounts.md, CSRF). */
  csrfToken: string;
}

/**
 * The session of the current request, asked of the API once per request (GET /v1/auth/session,
 * which also refreshes the idle expiry and hands out the CSRF token).
 * @throws PortalError unauthorized when the browser has no session cookie or the API ended the
 *   session (idle or absolute expiry, log-out, removal); others as apiRequest.
 */
export const currentSession = cache(async (): Promise<Session> => {
  if (!(await cookies()).get(SESSION_COOKIE)?.value) throw new PortalError("unauthorized", "You are not signed in.");
  const info = await apiRequest("GET", "/v1/auth/session", { schema: SessionInfo });
  return { user: info.user, organization: info.organization, organizations: info.organizations, role: info.organization.role, csrfToken: info.csrf_token };
});

/**
 * The session, or null when nobody is signed in or the API cannot say (for the shell, which
 * renders on every page: the page itself then shows the API's error or redirects to /login).
 */
export async function optionalSession(): Promise<Session | null> {
  try {
    return await currentSession();
  } catch (err) {
    if (err instanceof PortalError) return null;
    throw err;
  }
}

/** A base the return path is resolved against: only its origin matters. */
const RETURN_BASE = "http://portal.invalid";

/**
 * A portal path the login page may return to: same-origin and absolute ("/volumes?sort=ops"),
 * anything else "/". The path is resolved as a browser would (WHATWG URL: tabs and newlines
 * dropped, "\\" read as "/", dot segments removed, percent-encoded ones too), and must stay on the
 * portal's origin and not start with "//" once resolved: "/\t/evil.example", "/\t\\evil.example"
 * and "/%2e%2e//evil.example" are open redirects a prefix check lets through (issue 16).
 */
export function safeReturnPath(path: string | null | undefined): string {
  if (!path || !path.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(path, RETURN_BASE);
  } catch {
    return "/";
  }
  if (url.origin !== RETURN_BASE || url.pathname.startsWith("//")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Redirects to /login with the requested path (from the proxy's header) as the return path. */
export async function redirectToLogin(): Promise<never> {
  const next = safeReturnPath((await headers()).get(PATH_HEADER));
  redirect(next === "/" ? "/login" : `/login?${new URLSearchParams({ next })}`);
}

/**
 * Runs an API change as the signed-in user with the session's CSRF token.
 * @throws PortalError as apiRequest (unauthorized when the session ended).
 */
export async function sendJson<T>(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, schema: z.ZodType<T>, body?: unknown, extraHeaders?: Record<string, string>): Promise<T> {
  const { csrfToken } = await currentSession();
  return apiRequest(method, path, { schema, body, csrfToken, headers: extraHeaders });
}
