import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Scope } from '../identity/principal.js';

/** A live API key, as authenticate_api_key returns it. */
export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  scope: Scope;
}

/**
 * The API key lookup of authentication (`ApiKeyGuard`), before the tenant is known; the tenant's
 * own key management (create, list, revoke) is `ApiKeysRepository` (api-keys/).
 */
@Injectable()
export class ApiKeyLookupRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * Finds the live (not revoked) API key whose SHA-256 is `keySha256`, through the SECURITY
   * DEFINER function authenticate_api_key (the tenant is not known yet, so RLS would hide the row).
   *
   * @param keySha256 SHA-256 hex of the Bearer key.
   * @returns the key's id, tenant and scope, or null.
   */
  async authenticate(keySha256: string): Promise<AuthenticatedKey | null> {
    const { rows } = await this.database.pool.query<{ api_key_id: string; tenant_id: string; scope: Scope }>(
      'SELECT api_key_id, tenant_id, scope FROM authenticate_api_key($1)',
      [keySha256],
    );
    return rows.length === 1 ? { id: rows[0].api_key_id, tenantId: rows[0].tenant_id, scope: rows[0].scope } : null;
  }
}
