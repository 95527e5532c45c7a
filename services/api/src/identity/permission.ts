import { ApiError, ErrorCode } from '@tierwise/common';
import type { Principal, Role } from './principal.js';

/** What a route needs. A principal's role grants a set of permissions; its scope may forbid changes. */
export enum Permission {
  FleetRead = 'fleet.read',
  HostRead = 'host.read',
  VolumeRead = 'volume.read',
  RecommendationRead = 'recommendation.read',
  /** Apply or dismiss a recommendation. */
  RecommendationWrite = 'recommendation.write',
  /** Set a volume's desired cache policy. */
  PolicyWrite = 'policy.write',
  ApiKeyRead = 'api_key.read',
  ApiKeyWrite = 'api_key.write',
  AuditRead = 'audit.read',
  /** List the tenant's agents with their health. */
  AgentRead = 'agent.read',
  /** Revoke an agent; create or delete enrollment tokens. */
  AgentWrite = 'agent.write',
  /** List enrollment tokens (admin only, like API keys). */
  EnrollmentTokenRead = 'enrollment_token.read',
  /** List the organization's members and pending invitations. */
  MemberRead = 'member.read',
  /** Invite, change a member's role, remove a member (owner-only rules in MembersService). */
  MemberWrite = 'member.write',
  /** Notification channels, routes, alert rules, mute windows and the delivery log. */
  NotificationsRead = 'notifications.read',
  /** Change notification channels, routes, alert rules and mute windows. */
  NotificationsWrite = 'notifications.write',
}

/** Permissions that change something: refused to a principal of scope 'read' whatever its role. */
const CHANGES: ReadonlySet<Permission> = new Set([Permission.RecommendationWrite, Permission.PolicyWrite, Permission.ApiKeyWrite, Permission.MemberWrite, Permission.NotificationsWrite, Permission.AgentWrite]);

const VIEWER = [Permission.FleetRead, Permission.HostRead, Permission.VolumeRead, Permission.RecommendationRead, Permission.MemberRead, Permission.NotificationsRead, Permission.AgentRead];
const ADMIN = [...VIEWER, ...CHANGES, Permission.ApiKeyRead, Permission.AuditRead, Permission.EnrollmentTokenRead];

/** The permissions of each role (owner and admin differ in member management, which is not an api permission). */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  viewer: VIEWER,
  admin: ADMIN,
  owner: ADMIN,
};

/**
 * Checks that the principal may do `permission`: its role grants it, and a change needs
 * scope 'read-write'. Every authentication guard calls this after building the principal.
 * @throws ApiError forbidden naming the missing permission.
 */
export function assertPermission(principal: Principal, permission: Permission): void {
  if (!ROLE_PERMISSIONS[principal.role].includes(permission)) {
    throw new ApiError(ErrorCode.Forbidden, `role '${principal.role}' does not grant ${permission}`);
  }
  if (CHANGES.has(permission) && principal.scope !== 'read-write') {
    throw new ApiError(ErrorCode.Forbidden, `scope '${principal.scope}' does not grant ${permission}`);
  }
}
