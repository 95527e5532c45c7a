import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { AuditRow } from './audit.dto.js';

/** An entry to append to audit_log. */
export interface AuditInsert {
  tenantId: string;
  actorKind: 'user' | 'api_key';
  actorId: string;
  action: string;
  targetKind: string;
  targetId: string;
  before: object | null;
  after: object | null;
  ip: string | null;
  userAgent: string | null;
}

/** Filters of an audit log page; every field optional. */
export interface AuditFilter {
  action?: string;
  actorId?: string;
  targetId?: string;
  since?: string;
  /** Entries with a smaller id than this (the previous page's last). */
  beforeId?: string;
}

@Injectable()
export class AuditRepository {
  /** Appends one entry, in the caller's transaction. */
  async insert(db: Queryable, entry: AuditInsert): Promise<void> {
    await db.query(
      `INSERT INTO audit_log (tenant_id, actor_kind, actor_id, action, target_kind, target_id, before, after, ip, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::inet, $10)`,
      [entry.tenantId, entry.actorKind, entry.actorId, entry.action, entry.targetKind, entry.targetId, entry.before, entry.after, entry.ip, entry.userAgent],
    );
  }

  /** Entries of the tenant, newest first, keyset-paginated on id. */
  async list(db: Queryable, tenantId: string, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
    const { rows } = await db.query<AuditRow>(
      `SELECT a.id::text, a.at, a.actor_kind, a.actor_id, a.action, a.target_kind, a.target_id, v.display_name AS target_display_name,
              a.before, a.after, host(a.ip) AS ip, a.user_agent
         FROM audit_log a
         LEFT JOIN volumes v ON a.target_kind = 'volume' AND v.tenant_id = a.tenant_id AND v.volume_id = a.target_id
        WHERE a.tenant_id = $1
          AND ($2::bigint IS NULL OR a.id < $2) AND ($3::text IS NULL OR a.action = $3)
          AND ($4::uuid IS NULL OR a.actor_id = $4) AND ($5::text IS NULL OR a.target_id = $5)
          AND ($6::timestamptz IS NULL OR a.at >= $6)
        ORDER BY a.id DESC
        LIMIT $7`,
      [tenantId, filter.beforeId ?? null, filter.action ?? null, filter.actorId ?? null, filter.targetId ?? null, filter.since ?? null, limit],
    );
    return rows;
  }
}
