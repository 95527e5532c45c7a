import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { type RecommendationHistoryQuery, recommendationHistoryQuerySchema, RecommendationHistoryPageDto } from './recommendation.dto.js';
import { RecommendationService } from './recommendation.service.js';

/** The history of a volume's recommendations: every prediction, predicted against measured. */
@ApiTags('recommendations')
@Controller('v1/volumes')
export class RecommendationHistoryController {
  constructor(private readonly recommendations: RecommendationService) {}

  @Get(':volumeId/recommendations/history')
  @Authenticated({ permission: Permission.RecommendationRead })
  @Endpoint({ summary: "A volume's past predictions, newest first, each with the hit ratio measured while it ran and the error (measured - predicted)", ok: RecommendationHistoryPageDto, errors: { 400: 'malformed volumeId, limit or cursor', 404: 'the tenant has no such volume' } })
  history(
    @Auth() auth: Principal,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Query({ schema: recommendationHistoryQuerySchema }) query: RecommendationHistoryQuery,
  ): Promise<RecommendationHistoryPageDto> {
    return this.recommendations.history(auth, volumeId, query);
  }
}
