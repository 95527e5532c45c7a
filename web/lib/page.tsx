import "server-only";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ErrorView } from "@/components/ErrorView";
import { PortalError } from "./errors";
import { requirePermission, type Permission } from "./permissions";
import { currentSession } from "./session";

/** Props Next.js passes to an App Router page: route params and the query, both as promises. */
export interface RouteProps<Params extends Record<string, string> = Record<string, never>> {
  params: Promise<Params>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * Wraps a server page: checks that the session's role grants `permission`, then renders.
 * A PortalError becomes the error view for its code (not_found becomes the 404 page);
 * anything else propagates to Next.js' error boundary.
 */
export function definePage<Params extends Record<string, string>>(
  options: { permission: Permission },
  render: (props: RouteProps<Params>) => Promise<ReactNode>,
) {
  return async function Page(props: RouteProps<Params>): Promise<ReactNode> {
    try {
      requirePermission((await currentSession()).role, options.permission);
      return await render(props);
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      if (err.code === "not_found") notFound();
      return <ErrorView error={err} />;
    }
  };
}
