import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, type Type } from '@nestjs/common';
import { ApiBadRequestResponse, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import type { ZodType } from 'zod';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { AlertRuleDto, AlertRuleListDto, ChannelDto, ChannelListDto, MuteWindowDto, MuteWindowListDto, RouteDto, RouteListDto } from './settings.dto.js';
import { SettingsRepository } from './settings.repository.js';
import { ALERT_RULES, CHANNELS, MUTE_WINDOWS, ROUTES, type SettingsResource } from './settings.resources.js';
import {
  channelCreateSchema,
  channelUpdateSchema,
  muteWindowCreateSchema,
  muteWindowUpdateSchema,
  routeCreateSchema,
  routeUpdateSchema,
  ruleCreateSchema,
  ruleUpdateSchema,
  settingsIdSchema,
} from './settings.schemas.js';

interface SettingsControllerSpec {
  resource: SettingsResource;
  /** Name of the path parameter, e.g. channelId; also the operationId stem. */
  param: string;
  /** Operation id stem, e.g. Channel. */
  operation: string;
  create: ZodType;
  update: ZodType;
  dto: Type<unknown>;
  list: Type<unknown>;
}

/**
 * The CRUD controller of one settings resource under /v1/notifications/<path>: GET (list, needs
 * notifications.read), POST, PATCH /{id}, DELETE /{id} (need notifications.write). Bodies are
 * validated by zod; a row of another tenant answers 404 like a missing one.
 */
function settingsController(spec: SettingsControllerSpec): Type<unknown> {
  const { resource, param } = spec;
  @ApiTags('notifications')
  @Controller(`v1/notifications/${resource.path}`)
  class SettingsController {
    constructor(@Inject(SettingsRepository) private readonly settings: SettingsRepository) {}

    @Get()
    @Authenticated({ permission: Permission.NotificationsRead })
    @ApiOperation({ operationId: `list${spec.operation}s`, summary: `The tenant's ${resource.noun}s, oldest first` })
    @ApiOkResponse({ type: spec.list })
    async list(@Auth() auth: Principal): Promise<unknown> {
      return { data: await this.settings.list(auth.tenantId, resource) };
    }

    @Post()
    @Authenticated({ permission: Permission.NotificationsWrite })
    @ApiOperation({ operationId: `create${spec.operation}`, summary: `Creates a ${resource.noun}` })
    @ApiCreatedResponse({ type: spec.dto })
    @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'invalid body' })
    create(@Auth() auth: Principal, @Body({ schema: spec.create }) body: Record<string, unknown>): Promise<unknown> {
      return this.settings.create(auth.tenantId, resource, body);
    }

    @Patch(`:${param}`)
    @Authenticated({ permission: Permission.NotificationsWrite })
    @ApiOperation({ operationId: `update${spec.operation}`, summary: `Changes the fields of a ${resource.noun} the body names` })
    @ApiOkResponse({ type: spec.dto })
    @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'invalid id or body' })
    @ApiNotFoundResponse({ type: ErrorBodyDto, description: `the tenant has no such ${resource.noun}` })
    update(
      @Auth() auth: Principal,
      @Param(param, { schema: settingsIdSchema }) id: string,
      @Body({ schema: spec.update }) body: Record<string, unknown>,
    ): Promise<unknown> {
      return this.settings.update(auth.tenantId, resource, id, body);
    }

    @Delete(`:${param}`)
    @HttpCode(204)
    @Authenticated({ permission: Permission.NotificationsWrite })
    @ApiOperation({ operationId: `delete${spec.operation}`, summary: `Deletes a ${resource.noun}` })
    @ApiNoContentResponse({ description: 'deleted' })
    @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'invalid id' })
    @ApiNotFoundResponse({ type: ErrorBodyDto, description: `the tenant has no such ${resource.noun}` })
    remove(@Auth() auth: Principal, @Param(param, { schema: settingsIdSchema }) id: string): Promise<void> {
      return this.settings.remove(auth.tenantId, resource, id);
    }
  }
  Object.defineProperty(SettingsController, 'name', { value: `${spec.operation}SettingsController` });
  return SettingsController;
}

/** Channels: e-mail recipients (with digest preference), Slack incoming webhooks, Slack bot channels. */
export const ChannelsController = settingsController({
  resource: CHANNELS, param: 'channelId', operation: 'Channel', create: channelCreateSchema, update: channelUpdateSchema, dto: ChannelDto, list: ChannelListDto,
});
/** Routes: which event kinds of which severity go to which channel. */
export const RoutesController = settingsController({
  resource: ROUTES, param: 'routeId', operation: 'Route', create: routeCreateSchema, update: routeUpdateSchema, dto: RouteDto, list: RouteListDto,
});
/** Alert rules evaluated by the notifier. */
export const AlertRulesController = settingsController({
  resource: ALERT_RULES, param: 'ruleId', operation: 'AlertRule', create: ruleCreateSchema, update: ruleUpdateSchema, dto: AlertRuleDto, list: AlertRuleListDto,
});
/** Mute windows: deliveries due inside one wait until it ends. */
export const MuteWindowsController = settingsController({
  resource: MUTE_WINDOWS, param: 'windowId', operation: 'MuteWindow', create: muteWindowCreateSchema, update: muteWindowUpdateSchema, dto: MuteWindowDto, list: MuteWindowListDto,
});
