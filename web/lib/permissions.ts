import { z } from "zod";
import { PortalError } from "./errors";

/**
 * Permissions a route can name; each page declares the one it needs and the shell shows a
 * link only when the role grants it. They mirror the API's (services/api/src/identity/permission.ts),
 * which enforces them again on every call.
 */
export const Permission = z.enum([
  "fleet.read",
  "volumes.read",
  "recommendations.read",
  "recommendations.write",
  "agents.read",
  "agents.write",
  "members.read",
  "members.write",
  "api_keys.read",
  "api_keys.write",
  "notifications.read",
  "notifications.write",
  "audit.read",
]);
export type Permission = z.infer<typeof Permission>;

/** Portal roles (DESIGN.md §5, docs/accounts.md): the role of the signed-in user's membership. */
export const Role = z.enum(["owner", "admin", "viewer"]);
export type Role = z.infer<typeof Role>;

const VIEWER: readonly Permission[] = ["fleet.read", "volumes.read", "recommendations.read", "agents.read", "members.read", "notifications.read"];

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: Permission.options,
  admin: Permission.options,
  viewer: VIEWER,
};

/** Whether `role` grants `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/**
 * Throws unless `role` grants `permission`.
 * @throws PortalError forbidden naming the role and the permission.
 */
export function requirePermission(role: Role, permission: Permission): void {
  if (!can(role, permission)) {
    throw new PortalError("forbidden", `The ${role} role does not grant ${permission}.`);
  }
}
