import type { Request } from 'express';

/**
 * Who is calling: what every authentication guard of the api (API key, portal session)
 * puts on the request, and the only thing services and the audit log read about the caller.
 * The tenant always comes from the credential, never from a payload.
 */

/** Roles of a tenant's members; an API key acts as 'viewer' (read) or 'admin' (read-write). */
export type Role = 'owner' | 'admin' | 'viewer';

/** What a credential may do: read, or read and change. */
export type Scope = 'read' | 'read-write';

/** The kind of credential behind a request. */
export type ActorKind = 'user' | 'api_key';

/** The credential behind a request: a portal user (users.id) or an API key (api_keys.id). */
export interface Actor {
  kind: ActorKind;
  /** UUID of the user or of the API key. */
  id: string;
}

/** The authenticated caller of a request. */
export interface Principal {
  /** UUID of the tenant every query of the request is scoped to. */
  tenantId: string;
  actor: Actor;
  role: Role;
  scope: Scope;
}

/** The role an API key acts with: 'viewer' for a read key, 'admin' for a read-write key. */
export function apiKeyRole(scope: Scope): Role {
  return scope === 'read-write' ? 'admin' : 'viewer';
}

/** The principal of an API key (api_keys row: id, tenant_id, scope). */
export function apiKeyPrincipal(key: { id: string; tenantId: string; scope: Scope }): Principal {
  return { tenantId: key.tenantId, actor: { kind: 'api_key', id: key.id }, role: apiKeyRole(key.scope), scope: key.scope };
}

/** A request that passed an authentication guard. */
export interface AuthenticatedRequest extends Request {
  principal: Principal;
}
