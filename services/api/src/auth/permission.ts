/** What a route needs; an API key's scope grants a set of permissions. */
export enum Permission {
  FleetRead = 'fleet.read',
  VolumeRead = 'volume.read',
  NotificationsRead = 'notifications.read',
  NotificationsWrite = 'notifications.write',
}

/** API key scopes (api_keys.scope) and the permissions each grants. */
export const SCOPE_PERMISSIONS: Readonly<Record<string, readonly Permission[]>> = {
  read: [Permission.FleetRead, Permission.VolumeRead, Permission.NotificationsRead],
  'read-write': [Permission.FleetRead, Permission.VolumeRead, Permission.NotificationsRead, Permission.NotificationsWrite],
};
