import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { type CreatedCursor, listRevocable, type RevocationStatus } from '../http/revocable-list.js';
import type { Actor, Scope } from '../identity/principal.js';
import type { ApiKeyRow } from './api-key.dto.js';

const COLUMNS = 'id, name, scope, key_prefix, created_at, last_used_at, revoked_at, created_by_kind, created_by_id';

/** Managing a tenant's API keys, in the tenant's transaction (authentication is ApiKeyLookupRepository's). */
@Injectable()
export class ApiKeysRepository {
  async insert(db: Queryable, tenantId: string, key: { name: string; scope: Scope; sha256: string; prefix: string; createdBy: Actor }): Promise<ApiKeyRow> {
    const { rows } = await db.query<ApiKeyRow>(
      `INSERT INTO api_keys (tenant_id, name, scope, key_sha256, key_prefix, created_by_kind, created_by_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [tenantId, key.name, key.scope, key.sha256, key.prefix, key.createdBy.kind, key.createdBy.id],
    );
    return rows[0];
  }

  /** Keys of the tenant, newest first, a page after `after` (listRevocable). */
  list(db: Queryable, tenantId: string, status: RevocationStatus, after: CreatedCursor | null, limit: number): Promise<ApiKeyRow[]> {
    return listRevocable<ApiKeyRow>(db, 'api_keys', COLUMNS, tenantId, status, after, limit);
  }

  /** The key, locked for update, or null when the tenant has no such key. */
  async lock(db: Queryable, tenantId: string, id: string): Promise<ApiKeyRow | null> {
    const { rows } = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE tenant_id = $1 AND id = $2 FOR UPDATE`, [tenantId, id]);
    return rows[0] ?? null;
  }

  async revoke(db: Queryable, tenantId: string, id: string): Promise<ApiKeyRow> {
    const { rows } = await db.query<ApiKeyRow>(`UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [tenantId, id]);
    return rows[0];
  }
}
