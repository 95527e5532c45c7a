import { Module } from '@nestjs/common';
import { DatabaseModule, EnvModule, HealthModule } from '@tierwise/common';
import { API_ENV } from './api.constants.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { BenchmarksController } from './benchmarks/benchmarks.controller.js';
import { BenchmarksRepository } from './benchmarks/benchmarks.repository.js';
import { BenchmarksService } from './benchmarks/benchmarks.service.js';
import { RollupsController } from './benchmarks/rollups.controller.js';
import { RollupsRepository } from './benchmarks/rollups.repository.js';
import { RollupsService } from './benchmarks/rollups.service.js';
import { FleetController } from './controllers/fleet.controller.js';
import { VolumeController } from './controllers/volume.controller.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { FleetRepository } from './repositories/fleet.repository.js';
import { VolumeRepository } from './repositories/volume.repository.js';
import { FleetService } from './services/fleet.service.js';
import { VolumeService } from './services/volume.service.js';

@Module({
  imports: [EnvModule.forRoot(API_ENV), DatabaseModule, HealthModule],
  controllers: [FleetController, VolumeController, BenchmarksController, RollupsController],
  providers: [ApiKeyGuard, ApiKeyRepository, BenchmarksRepository, BenchmarksService, RollupsRepository, RollupsService, FleetRepository, VolumeRepository, FleetService, VolumeService],
})
export class AppModule {}
