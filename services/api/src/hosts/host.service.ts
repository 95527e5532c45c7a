import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import { mapSharedTierRecommendation, mapSharedTierWindow } from '../shared-tiers/shared-tier.dto.js';
import { SharedTierRepository } from '../shared-tiers/shared-tier.repository.js';
import { type HostDto, type HostListQuery, type HostWorkingSetDto, mapHost } from './host.dto.js';
import { HostRepository } from './host.repository.js';

const CURSOR_KIND = 'hosts';
const positionSchema = z.tuple([z.string()]);

@Injectable()
export class HostService {
  constructor(
    private readonly database: DatabaseService,
    private readonly hosts: HostRepository,
    private readonly sharedTiers: SharedTierRepository,
  ) {}

  /**
   * One page of the caller's hosts in host id order.
   * @throws ApiError bad_request for a cursor of another list.
   */
  async list(auth: Principal, query: HostListQuery): Promise<Page<HostDto>> {
    const afterHostId = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, positionSchema)[0] : undefined;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.hosts.list(db, auth.tenantId, { afterHostId, seenSince: query.seen_since }, query.limit + 1);
      return toPage(rows, query.limit, mapHost, (last) => encodeCursor(CURSOR_KIND, [last.host_id]));
    });
  }

  /**
   * The tier the host's volumes share: the working set and every eviction policy's MRC of their
   * merged reference stream over each window, and the tier recommended from it (the stream jobs'
   * SharedTier.HOST); what the volumes add up to today.
   * @throws ApiError not_found when the caller's tenant has no such host.
   */
  async workingSet(auth: Principal, hostId: string): Promise<HostWorkingSetDto> {
    const [tier, windows, recommendation] = await this.database.withTenant(auth.tenantId, async (db) => [
      await this.hosts.tier(db, auth.tenantId, hostId),
      await this.sharedTiers.windows(db, auth.tenantId, 'host', hostId),
      await this.sharedTiers.recommendation(db, auth.tenantId, 'host', hostId),
    ] as const);
    if (!tier) {
      throw new ApiError(ErrorCode.NotFound, `host ${hostId} not found`);
    }
    return {
      host_id: hostId,
      ...tier,
      windows: windows.map(mapSharedTierWindow),
      recommendation: recommendation && mapSharedTierRecommendation(recommendation),
    };
  }
}
