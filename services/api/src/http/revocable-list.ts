import type { Queryable } from '@tierwise/common';

/** Which rows of a revocable credential table a list shows. */
export type RevocationStatus = 'active' | 'revoked' | 'all';

/** The last row of the previous page: its created_at (to the millisecond, as the cursor carries it) and id. */
export interface CreatedCursor {
  createdAt: string;
  id: string;
}

/**
 * One page of a tenant's revocable credentials (api_keys, agents: tables with tenant_id,
 * created_at, id and revoked_at), newest first, keyset-paginated on (created_at truncated to
 * the millisecond, id) so that a cursor's ISO timestamp matches the row it came from.
 *
 * @param table the credential table; a constant of the caller, never user input.
 * @param columns the SELECT list; a constant of the caller.
 * @param after the last row of the previous page, or null for the first page.
 * @param limit rows at most.
 */
export async function listRevocable<T extends object>(
  db: Queryable,
  table: 'agents' | 'api_keys',
  columns: string,
  tenantId: string,
  status: RevocationStatus,
  after: CreatedCursor | null,
  limit: number,
): Promise<T[]> {
  const { rows } = await db.query<T>(
    `SELECT ${columns} FROM ${table}
      WHERE tenant_id = $1
        AND ($2 = 'all' OR (revoked_at IS NULL) = ($2 = 'active'))
        AND ($3::timestamptz IS NULL OR (date_trunc('milliseconds', created_at), id) < ($3, $4::uuid))
      ORDER BY date_trunc('milliseconds', created_at) DESC, id DESC
      LIMIT $5`,
    [tenantId, status, after?.createdAt ?? null, after?.id ?? null, limit],
  );
  return rows;
}
