import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { Actor } from '../identity/principal.js';
import type { CachePolicy } from '@tierwise/common';
import type { PolicyRow } from './policy.dto.js';

const COLUMNS = `volume_id, version, mode, write_back_copies, tier_bytes::float8 AS tier_bytes, media, eviction, source,
                 updated_at, updated_by_kind, updated_by_id, applied_version, applied_at, applied_error`;

@Injectable()
export class PolicyRepository {
  /** Whether the tenant has the volume. */
  async volumeExists(db: Queryable, tenantId: string, volumeId: string): Promise<boolean> {
    const { rowCount } = await db.query('SELECT 1 FROM volumes WHERE tenant_id = $1 AND volume_id = $2', [tenantId, volumeId]);
    return rowCount === 1;
  }

  /** The volume's policy, or null; `forUpdate` locks it until the transaction ends. */
  async get(db: Queryable, tenantId: string, volumeId: string, forUpdate = false): Promise<PolicyRow | null> {
    const { rows } = await db.query<PolicyRow>(
      `SELECT ${COLUMNS} FROM volume_policies WHERE tenant_id = $1 AND volume_id = $2 ${forUpdate ? 'FOR UPDATE' : ''}`,
      [tenantId, volumeId],
    );
    return rows[0] ?? null;
  }

  /** Writes the desired policy: version 1 for a volume without one, else the next version. */
  async upsert(db: Queryable, tenantId: string, volumeId: string, desired: CachePolicy, source: PolicyRow['source'], actor: Actor): Promise<PolicyRow> {
    const { rows } = await db.query<PolicyRow>(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, write_back_copies, tier_bytes, media, eviction, source, updated_by_kind, updated_by_id)
       VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (tenant_id, volume_id) DO UPDATE SET
         version = volume_policies.version + 1, mode = EXCLUDED.mode, write_back_copies = EXCLUDED.write_back_copies,
         tier_bytes = EXCLUDED.tier_bytes, media = EXCLUDED.media, eviction = EXCLUDED.eviction, source = EXCLUDED.source,
         updated_at = now(), updated_by_kind = EXCLUDED.updated_by_kind, updated_by_id = EXCLUDED.updated_by_id
       RETURNING ${COLUMNS}`,
      [tenantId, volumeId, desired.mode, desired.write_back_copies, desired.tier_bytes, desired.media, desired.eviction, source, actor.kind, actor.id],
    );
    return rows[0];
  }
}
