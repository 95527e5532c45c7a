import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { Idempotent } from '../http/idempotent.decorator.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import {
  AppliedRecommendationDto,
  type ApplyRecommendation,
  applyRecommendationSchema,
  type DismissRecommendation,
  dismissRecommendationSchema,
  RecommendationItemDto,
  type RecommendationListQuery,
  recommendationListQuerySchema,
  RecommendationPageDto,
} from './recommendation.dto.js';
import { RecommendationService } from './recommendation.service.js';

@ApiTags('recommendations')
@Controller('v1/recommendations')
export class RecommendationController {
  constructor(private readonly recommendations: RecommendationService) {}

  @Get()
  @Authenticated({ permission: Permission.RecommendationRead })
  @Endpoint({ summary: 'Tier recommendations of the tenant, newest first, with their status', ok: RecommendationPageDto, errors: { 400: 'malformed filter, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: recommendationListQuerySchema }) query: RecommendationListQuery): Promise<RecommendationPageDto> {
    return this.recommendations.list(auth, query);
  }

  @Get(':volumeId')
  @Authenticated({ permission: Permission.RecommendationRead })
  @Endpoint({ summary: "A volume's recommendation: tier size, media, policy, predicted hit ratio, inputs, status", ok: RecommendationItemDto, errors: { 400: 'malformed volumeId', 404: 'the volume has no recommendation' } })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string): Promise<RecommendationItemDto> {
    return this.recommendations.get(auth, volumeId);
  }

  @Post(':volumeId/apply')
  @HttpCode(HttpStatus.OK)
  @Authenticated({ permission: Permission.RecommendationWrite })
  @Idempotent()
  @Endpoint({ summary: "Apply a volume's recommendation: it becomes the volume's desired policy (a new version)", ok: AppliedRecommendationDto, errors: { 400: 'malformed volumeId or body', 404: 'the volume has no recommendation', 409: "the recommendation changed or was decided since it was read, or a concurrent change came first" } })
  @ApiBody({ required: false, description: 'optional: without it, the recommendation as it stands' })
  apply(
    @Auth() auth: Principal,
    @Origin() origin: RequestOrigin,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Body({ schema: applyRecommendationSchema }) body: ApplyRecommendation,
  ): Promise<AppliedRecommendationDto> {
    return this.recommendations.apply(auth, origin, volumeId, body);
  }

  @Post(':volumeId/dismiss')
  @HttpCode(HttpStatus.OK)
  @Authenticated({ permission: Permission.RecommendationWrite })
  @Idempotent()
  @Endpoint({ summary: "Dismiss a volume's recommendation (until it changes)", ok: RecommendationItemDto, errors: { 400: 'malformed volumeId or body', 404: 'the volume has no recommendation', 409: "the recommendation changed or was decided since it was read, or a concurrent change came first" } })
  dismiss(
    @Auth() auth: Principal,
    @Origin() origin: RequestOrigin,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Body({ schema: dismissRecommendationSchema }) body: DismissRecommendation,
  ): Promise<RecommendationItemDto> {
    return this.recommendations.dismiss(auth, origin, volumeId, body);
  }
}
