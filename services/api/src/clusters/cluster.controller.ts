import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { type WorkingSetHistoryQuery, workingSetHistoryQuerySchema } from '../series/working-set-history.dto.js';
import { WorkingSetHistoryService } from '../series/working-set-history.service.js';
import { type ClusterListQuery, clusterIdSchema, clusterListQuerySchema, ClusterPageDto, ClusterWorkingSetDto, ClusterWorkingSetHistoryDto } from './cluster.dto.js';
import { ClusterService } from './cluster.service.js';

@ApiTags('clusters')
@Controller('v1/clusters')
export class ClusterController {
  constructor(
    private readonly clusters: ClusterService,
    private readonly histories: WorkingSetHistoryService,
  ) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: 'Clusters of the tenant (hosts sharing a tier) with their working sets, one page at a time', ok: ClusterPageDto, errors: { 400: 'malformed limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: clusterListQuerySchema }) query: ClusterListQuery): Promise<ClusterPageDto> {
    return this.clusters.list(auth, query);
  }

  @Get(':clusterId/working-set')
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: "A cluster's working set and LRU miss ratio curve: its volumes' sampled references merged in time order, per window", ok: ClusterWorkingSetDto, errors: { 400: 'malformed clusterId', 404: 'no results for this cluster in the caller\'s tenant' } })
  workingSet(@Auth() auth: Principal, @Param('clusterId', { schema: clusterIdSchema }) clusterId: string): Promise<ClusterWorkingSetDto> {
    return this.clusters.workingSet(auth, clusterId);
  }

  @Get(':clusterId/working-set/history')
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: "A cluster's working set size over time, downsampled to the chart's width", ok: ClusterWorkingSetHistoryDto, errors: { 400: 'malformed clusterId, window, from, to or width', 404: "no results for this cluster in the caller's tenant" } })
  history(
    @Auth() auth: Principal,
    @Param('clusterId', { schema: clusterIdSchema }) clusterId: string,
    @Query({ schema: workingSetHistoryQuerySchema }) query: WorkingSetHistoryQuery,
  ): Promise<ClusterWorkingSetHistoryDto> {
    return this.histories.get(auth, 'cluster', clusterId, query).then((h) => ({ cluster_id: clusterId, ...h }));
  }
}
