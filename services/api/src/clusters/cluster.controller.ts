import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../auth/permission.js';
import type { Principal } from '../auth/principal.js';
import { type ClusterListQuery, clusterIdSchema, clusterListQuerySchema, ClusterPageDto, ClusterWorkingSetDto } from './cluster.dto.js';
import { ClusterService } from './cluster.service.js';

@ApiTags('clusters')
@Controller('v1/clusters')
export class ClusterController {
  constructor(private readonly clusters: ClusterService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @ApiOperation({ summary: 'Clusters of the tenant (hosts sharing a tier) with their working sets, one page at a time' })
  @ApiOkResponse({ type: ClusterPageDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed limit or cursor' })
  list(@Auth() auth: Principal, @Query({ schema: clusterListQuerySchema }) query: ClusterListQuery): Promise<ClusterPageDto> {
    return this.clusters.list(auth, query);
  }

  @Get(':clusterId/working-set')
  @Authenticated({ permission: Permission.VolumeRead })
  @ApiOperation({ summary: "A cluster's working set and LRU miss ratio curve: its volumes' sampled references merged in time order, per window" })
  @ApiOkResponse({ type: ClusterWorkingSetDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed clusterId' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'no results for this cluster in the caller\'s tenant' })
  workingSet(@Auth() auth: Principal, @Param('clusterId', { schema: clusterIdSchema }) clusterId: string): Promise<ClusterWorkingSetDto> {
    return this.clusters.workingSet(auth, clusterId);
  }
}
