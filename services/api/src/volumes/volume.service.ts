import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import type { VolumeListQuery } from './volume-query.js';
import { toPage } from '../http/pagination.js';
import { mapVolumeDetail, mapVolumeSummary, type VolumeDetailDto, type VolumeListDto } from './volume.dto.js';
import type { Principal } from '../identity/principal.js';
import { VolumeRepository } from './volume.repository.js';
import { decodeVolumeCursor, encodeVolumeCursor } from './volume-cursor.js';

@Injectable()
export class VolumeService {
  constructor(
    private readonly database: DatabaseService,
    private readonly volumes: VolumeRepository,
  ) {}

  /**
   * One page of the caller's volumes in the requested order, filtered by host and recommendation.
   * @throws ApiError bad_request for a cursor that is not a next_cursor of the same sort.
   */
  async list(auth: Principal, query: VolumeListQuery): Promise<VolumeListDto> {
    const after = query.cursor ? decodeVolumeCursor(query.cursor, query.sort) : null;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.volumes.list(db, auth.tenantId, { sort: query.sort, hostId: query.host_id, hasRecommendation: query.has_recommendation }, after, query.limit + 1);
      return toPage(rows, query.limit, mapVolumeSummary, (last) => encodeVolumeCursor(query.sort, { sortKey: last.sort_key, volumeId: last.volume_id }));
    });
  }

  /**
   * A volume with its I/O totals, cache counters, block-size distribution, working set,
   * miss ratio curve and recommendation.
   * @throws ApiError not_found when the caller's tenant has no such volume.
   */
  async get(auth: Principal, volumeId: string): Promise<VolumeDetailDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const volume = await this.volumes.get(db, auth.tenantId, volumeId);
      if (!volume) {
        throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      }
      return mapVolumeDetail({
        volume,
        blockSizes: await this.volumes.blockSizes(db, auth.tenantId, volumeId),
        workingSet: await this.volumes.workingSet(db, auth.tenantId, volumeId),
        mrc: await this.volumes.mrc(db, auth.tenantId, volumeId),
        recommendation: await this.volumes.recommendation(db, auth.tenantId, volumeId),
      });
    });
  }
}
