import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import { membersOf } from '../shared-tiers/shared-tier.repository.js';
import type { HostRow, HostTierRow } from './host.dto.js';

@Injectable()
export class HostRepository {
  /**
   * Hosts of the tenant in host id order, keyset-paginated.
   * @param afterHostId the last host of the previous page.
   * @param seenSince only hosts with last_seen at or after this time (RFC 3339).
   */
  async list(db: Queryable, tenantId: string, filter: { afterHostId?: string; seenSince?: string }, limit: number): Promise<HostRow[]> {
    const { rows } = await db.query<HostRow>(
      `SELECT h.host_id, h.display_name, h.first_seen, h.last_seen,
              (SELECT count(*) FROM volumes v WHERE v.tenant_id = h.tenant_id AND v.host_id = h.host_id)::int AS volumes
         FROM hosts h
        WHERE h.tenant_id = $1 AND ($2::text IS NULL OR h.host_id > $2) AND ($3::timestamptz IS NULL OR h.last_seen >= $3)
        ORDER BY h.host_id
        LIMIT $4`,
      [tenantId, filter.afterHostId ?? null, filter.seenSince ?? null, limit],
    );
    return rows;
  }

  /** What the volumes last seen on the host add up to; null when the tenant has no such host. */
  async tier(db: Queryable, tenantId: string, hostId: string): Promise<HostTierRow | null> {
    const { rows } = await db.query<HostTierRow>(
      `SELECT h.display_name, m.member_volumes AS volumes, m.capacity_bytes, m.volumes_recommended_tier_bytes
         FROM hosts h ${membersOf('host', 'h')}
        WHERE h.tenant_id = $1 AND h.host_id = $2`,
      [tenantId, hostId],
    );
    return rows[0] ?? null;
  }
}
