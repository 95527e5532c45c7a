import { Module } from '@nestjs/common';
import { DeliveriesController } from './deliveries.controller.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { AlertRulesController, ChannelsController, MuteWindowsController, RoutesController } from './settings.controller.js';
import { SettingsRepository } from './settings.repository.js';
import { UnsubscribeController } from './unsubscribe.controller.js';
import { UnsubscribeService } from './unsubscribe.service.js';
import { WebhookTargetCheck } from './webhook-target.check.js';

/**
 * Notification settings (channels, routes, alert rules, mute windows), the delivery log and the
 * e-mail unsubscribe links, under /v1/notifications. The notifier (services/notifier) reads the
 * settings and writes the log.
 */
@Module({
  controllers: [ChannelsController, RoutesController, AlertRulesController, MuteWindowsController, DeliveriesController, UnsubscribeController],
  providers: [SettingsRepository, DeliveriesRepository, UnsubscribeService, WebhookTargetCheck],
})
export class NotificationsModule {}
