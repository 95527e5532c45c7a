import "server-only";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ErrorView } from "@/components/ErrorView";
import { PortalError } from "./errors";
import { requirePermission, type Permission } from "./permissions";
import { currentSession, redirectToLogin, type Session } from "./session";

/** Props Next.js passes to an App Router page: route params and the query, both as promises. */
export interface RouteProps<Params extends Record<string, string> = Record<string, never>> {
  params: Promise<Params>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * Wraps a server page: requires a signed-in session whose role grants `permission`, then
 * renders with that session. Without a session (or when the API ends it meanwhile) it redirects
 * to /login with the requested path to return to; another PortalError becomes the error view
 * for its code (not_found becomes the 404 page); anything else propagates to Next.js' error
 * boundary.
 */
export function definePage<Params extends Record<string, string>>(
  options: { permission: Permission },
  render: (props: RouteProps<Params> & { session: Session }) => Promise<ReactNode>,
) {
  return async function Page(props: RouteProps<Params>): Promise<ReactNode> {
    let unauthorized = false;
    try {
      const session = await currentSession();
      requirePermission(session.role, options.permission);
      return await render({ ...props, session });
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      if (err.code === "not_found") notFound();
      if (err.code !== "unauthorized") return <ErrorView error={err} />;
      unauthorized = true;
    }
    if (unauthorized) await redirectToLogin();
    return null;
  };
}
