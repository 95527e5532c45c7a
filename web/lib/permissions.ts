import { z } from "zod";
import { PortalError } from "./errors";

/** Permissions a route can name; each page declares the one it needs. */
export const Permission = z.enum(["fleet.read", "volumes.read"]);
export type Permission = z.infer<typeof Permission>;

/** Portal roles (DESIGN.md §5). */
export const Role = z.enum(["owner", "admin", "viewer"]);
export type Role = z.infer<typeof Role>;

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: Permission.options,
  admin: Permission.options,
  viewer: ["fleet.read", "volumes.read"],
};

/**
 * Throws unless `role` grants `permission`.
 * @throws PortalError forbidden naming the role and the permission.
 */
export function requirePermission(role: Role, permission: Permission): void {
  if (!GRANTS[role].includes(permission)) {
    throw new PortalError("forbidden", `The ${role} role does not grant ${permission}.`);
  }
}
