import { Module } from '@nestjs/common';
import { DatabaseModule, EnvModule, HealthModule } from '@tierwise/common';
import { API_ENV } from './api.constants.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { FleetController } from './controllers/fleet.controller.js';
import { VolumeController } from './controllers/volume.controller.js';
import { FleetRepository } from './repositories/fleet.repository.js';
import { VolumeRepository } from './repositories/volume.repository.js';
import { FleetService } from './services/fleet.service.js';
import { VolumeService } from './services/volume.service.js';

@Module({
  imports: [EnvModule.forRoot(API_ENV), DatabaseModule, HealthModule, AccountsModule, NotificationsModule],
  controllers: [FleetController, VolumeController],
  providers: [FleetRepository, VolumeRepository, FleetService, VolumeService],
})
export class AppModule {}
