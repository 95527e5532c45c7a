import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../auth/permission.js';
import type { ApiKeyPrincipal } from '../repositories/api-key.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryListDto } from './settings.dto.js';
import { type DeliveryListQuery, deliveryListQuerySchema } from './settings.schemas.js';

@ApiTags('notifications')
@Controller('v1/notifications/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesRepository) {}

  @Get()
  @Authenticated({ permission: Permission.NotificationsRead })
  @ApiOperation({ operationId: 'listDeliveries', summary: 'The delivery log: every delivery of every event, newest first, with status, attempts and last error' })
  @ApiOkResponse({ type: DeliveryListDto })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'malformed limit, status or cursor' })
  list(@Auth() auth: ApiKeyPrincipal, @Query({ schema: deliveryListQuerySchema }) query: DeliveryListQuery): Promise<DeliveryListDto> {
    return this.deliveries.list(auth.tenantId, query);
  }
}
