import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { Actor } from '../identity/principal.js';
import type { EnrollmentTokenListQuery, EnrollmentTokenRow } from './enrollment-token.dto.js';

const COLUMNS = 'id, name, token_prefix, created_at, expires_at, used_at, agent_id, created_by_kind, created_by_id';

/** Which rows each status of the list shows. */
const STATUS_PREDICATE: Readonly<Record<EnrollmentTokenListQuery['status'], string>> = {
  usable: 'used_at IS NULL AND expires_at > now()',
  used: 'used_at IS NOT NULL',
  expired: 'used_at IS NULL AND expires_at <= now()',
  all: 'true',
};

/** A tenant's enrollment tokens, in the tenant's transaction (consuming one is the db function enroll_agent's). */
@Injectable()
export class EnrollmentTokensRepository {
  /** @param lifetimeSeconds the token expires this many seconds after now(). */
  async insert(db: Queryable, tenantId: string, token: { name: string; sha256: string; prefix: string; lifetimeSeconds: number; createdBy: Actor }): Promise<EnrollmentTokenRow> {
    const { rows } = await db.query<EnrollmentTokenRow>(
      `INSERT INTO enrollment_tokens (tenant_id, name, token_sha256, token_prefix, expires_at, created_by_kind, created_by_id)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, $7) RETURNING ${COLUMNS}`,
      [tenantId, token.name, token.sha256, token.prefix, token.lifetimeSeconds, token.createdBy.kind, token.createdBy.id],
    );
    return rows[0];
  }

  /**
   * Tokens of the tenant, newest first, keyset-paginated on (created_at to the millisecond, id).
   * @param after the last token of the previous page.
   */
  async list(db: Queryable, tenantId: string, status: EnrollmentTokenListQuery['status'], after: { createdAt: string; id: string } | null, limit: number): Promise<EnrollmentTokenRow[]> {
    const { rows } = await db.query<EnrollmentTokenRow>(
      `SELECT ${COLUMNS} FROM enrollment_tokens
        WHERE tenant_id = $1 AND ${STATUS_PREDICATE[status]}
          AND ($2::timestamptz IS NULL OR (date_trunc('milliseconds', created_at), id) < ($2, $3::uuid))
        ORDER BY date_trunc('milliseconds', created_at) DESC, id DESC
        LIMIT $4`,
      [tenantId, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows;
  }

  /** Deletes the token; null when the tenant has no such token. */
  async delete(db: Queryable, tenantId: string, id: string): Promise<EnrollmentTokenRow | null> {
    const { rows } = await db.query<EnrollmentTokenRow>(`DELETE FROM enrollment_tokens WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [tenantId, id]);
    return rows[0] ?? null;
  }
}
