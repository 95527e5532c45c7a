import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import { type ClusterDto, type ClusterListQuery, type ClusterWorkingSetDto, mapCluster, mapTier } from './cluster.dto.js';
import { ClusterRepository } from './cluster.repository.js';
import { mapSharedTierRecommendation, mapSharedTierWindow } from '../shared-tiers/shared-tier.dto.js';
import { SharedTierRepository } from '../shared-tiers/shared-tier.repository.js';

const CURSOR_KIND = 'clusters';
const positionSchema = z.tuple([z.string()]);

@Injectable()
export class ClusterService {
  constructor(
    private readonly database: DatabaseService,
    private readonly clusters: ClusterRepository,
    private readonly sharedTiers: SharedTierRepository,
  ) {}

  /**
   * One page of the caller's clusters in cluster id order.
   * @throws ApiError bad_request for a cursor of another list.
   */
  async list(auth: Principal, query: ClusterListQuery): Promise<Page<ClusterDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, positionSchema)[0] : undefined;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.clusters.list(db, auth.tenantId, after, query.limit + 1);
      return toPage(rows, query.limit, mapCluster, (last) => encodeCursor(CURSOR_KIND, [last.cluster_id]));
    });
  }

  /**
   * The working set and every eviction policy's MRC of the cluster's merged reference stream over
   * each window, the tier its members share (hosts, current and recommended size), and the shared
   * tier recommended from that stream.
   * @throws ApiError not_found when the caller's tenant has no results for that cluster.
   */
  async workingSet(auth: Principal, clusterId: string): Promise<ClusterWorkingSetDto> {
    const [rows, members, recommendation] = await this.database.withTenant(auth.tenantId, async (db) => [
      await this.sharedTiers.windows(db, auth.tenantId, 'cluster', clusterId),
      await this.clusters.members(db, auth.tenantId, clusterId),
      await this.sharedTiers.recommendation(db, auth.tenantId, 'cluster', clusterId),
    ] as const);
    if (rows.length === 0) {
      throw new ApiError(ErrorCode.NotFound, `cluster ${clusterId} not found`);
    }
    return {
      cluster_id: clusterId,
      volumes: Math.max(...rows.map((row) => row.volumes)),
      ...mapTier(members),
      windows: rows.map(mapSharedTierWindow),
      recommendation: recommendation && mapSharedTierRecommendation(recommendation),
    };
  }
}
