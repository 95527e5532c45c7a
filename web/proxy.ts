import { NextResponse, type NextRequest } from "next/server";
import { isPublicPath, PATH_HEADER, SESSION_COOKIE } from "./lib/routes";
import { contentSecurityPolicy, NONCE_HEADER } from "./lib/security-headers";

/**
 * Runs before every page request (Next.js 16 proxy, formerly middleware): a request without
 * the session cookie for a page that needs one is redirected to /login?next=<path>; the others
 * pass on with the requested path in {@link PATH_HEADER}, so a page whose session the API has
 * ended can send the user back to the same place after logging in. The API checks the session
 * itself; this is only the fast path for browsers that have none. Every page response gets the
 * Content-Security-Policy with a fresh nonce (lib/security-headers.ts), which the request carries
 * on to the page.
 */
export function proxy(request: NextRequest): NextResponse {
  const { pathname, search } = request.nextUrl;
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const policy = contentSecurityPolicy(nonce);
  if (!isPublicPath(pathname) && !request.cookies.get(SESSION_COOKIE)?.value) {
    const login = new URL("/login", request.url);
    if (pathname !== "/") login.searchParams.set("next", `${pathname}${search}`);
    const redirect = NextResponse.redirect(login);
    redirect.headers.set("Content-Security-Policy", policy);
    return redirect;
  }
  const headers = new Headers(request.headers);
  headers.set(PATH_HEADER, `${pathname}${search}`);
  headers.set(NONCE_HEADER, nonce);
  headers.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages only: not Next.js' assets, the icon or other static files.
  matcher: ["/((?!_next/|icon\\.svg|favicon\\.ico|robots\\.txt).*)"],
};
