import type { Permission } from "./permissions";

/** Request header the proxy (proxy.ts) sets to the requested path and query, for the return path after login. */
export const PATH_HEADER = "x-tierwise-path";

/** The API's session cookie, kept by the portal for the browser (lib/api-client.ts). */
export const SESSION_COOKIE = "tw_session";

/** Pages anyone may open: the account flows (docs/accounts.md, "Links in mails"). */
export const PUBLIC_PATHS = ["/login", "/signup", "/verify-email", "/forgot-password", "/reset-password", "/accept-invitation"] as const;

/** Whether `pathname` is one of {@link PUBLIC_PATHS} (or below one). */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** One entry of the main navigation, shown when the role grants `permission`. */
export interface NavItem {
  href: string;
  label: string;
  permission: Permission;
}

/**
 * The main navigation, in order. Pages may be added by other branches; a link to a page not
 * merged yet answers 404 until it is.
 */
export const NAV: readonly NavItem[] = [
  { href: "/fleet", label: "Overview", permission: "fleet.read" },
  { href: "/volumes", label: "Volumes", permission: "volumes.read" },
  { href: "/clusters", label: "Clusters", permission: "volumes.read" },
  { href: "/recommendations", label: "Recommendations", permission: "recommendations.read" },
  { href: "/benchmarks", label: "Benchmarks", permission: "fleet.read" },
  { href: "/agents", label: "Agents", permission: "agents.read" },
  { href: "/settings", label: "Settings", permission: "members.read" },
];

/** The settings sections (a sub-navigation under /settings). */
export const SETTINGS_NAV: readonly NavItem[] = [
  { href: "/settings/members", label: "Members", permission: "members.read" },
  { href: "/settings/api-keys", label: "API keys", permission: "api_keys.read" },
  { href: "/settings/notifications", label: "Notifications", permission: "notifications.read" },
  { href: "/settings/deliveries", label: "Delivery log", permission: "notifications.read" },
  { href: "/settings/audit-log", label: "Audit log", permission: "audit.read" },
];
