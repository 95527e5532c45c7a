import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryAttemptListDto, DeliveryListDto } from './settings.dto.js';
import { deliveryIdSchema, type DeliveryListQuery, deliveryListQuerySchema } from './settings.schemas.js';

@ApiTags('notifications')
@Controller('v1/notifications/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  @Get()
  @Authenticated({ permission: Permission.NotificationsRead })
  @ApiOperation({ operationId: 'listDeliveries', summary: 'The delivery log: every delivery of every event, newest first, with status, attempts and last error' })
  @ApiOkResponse({ type: DeliveryListDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed limit, status or cursor' })
  list(@Auth() auth: Principal, @Query({ schema: deliveryListQuerySchema }) query: DeliveryListQuery): Promise<DeliveryListDto> {
    return this.deliveries.list(auth.tenantId, query);
  }

  @Get(':deliveryId/attempts')
  @Authenticated({ permission: Permission.NotificationsRead })
  @ApiOperation({ operationId: 'listDeliveryAttempts', summary: 'Every attempt of one delivery: outcome, error, time' })
  @ApiOkResponse({ type: DeliveryAttemptListDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed deliveryId' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the tenant has no such delivery' })
  attempts(@Auth() auth: Principal, @Param('deliveryId', { schema: deliveryIdSchema }) deliveryId: string): Promise<DeliveryAttemptListDto> {
    return this.deliveries.attempts(auth.tenantId, deliveryId);
  }
}
