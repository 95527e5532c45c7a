import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { DatabaseModule, type Env, EnvModule, HealthModule, TIERWISE_ENV } from '@tierwise/common';
import { API_ENV } from './config/api.constants.js';
import { AccountsModule } from './accounts/accounts.module.js';
import { AgentsModule } from './agents/agents.module.js';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BenchmarksController } from './benchmarks/benchmarks.controller.js';
import { BenchmarksRepository } from './benchmarks/benchmarks.repository.js';
import { BenchmarksService } from './benchmarks/benchmarks.service.js';
import { RollupsController } from './benchmarks/rollups.controller.js';
import { RollupsRepository } from './benchmarks/rollups.repository.js';
import { RollupsService } from './benchmarks/rollups.service.js';
import { FleetController } from './fleet/fleet.controller.js';
import { VolumeController } from './volumes/volume.controller.js';
import { CpuModule } from './cpu/cpu.module.js';
import { ClusterController } from './clusters/cluster.controller.js';
import { ClusterRepository } from './clusters/cluster.repository.js';
import { ClusterService } from './clusters/cluster.service.js';
import { HostController } from './hosts/host.controller.js';
import { HostRepository } from './hosts/host.repository.js';
import { HostService } from './hosts/host.service.js';
import { SharedTierRepository } from './shared-tiers/shared-tier.repository.js';
import { InstallController } from './install/install.controller.js';
import { IdempotencyInterceptor } from './http/idempotency.interceptor.js';
import { IdempotencyRepository } from './http/idempotency.repository.js';
import { RateLimitGuard } from './http/rate-limit.guard.js';
import { MetricsExportController } from './metrics/metrics-export.controller.js';
import { MetricsExportRepository } from './metrics/metrics-export.repository.js';
import { MetricsExportService } from './metrics/metrics-export.service.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { PolicyController } from './policies/policy.controller.js';
import { PolicyRepository } from './policies/policy.repository.js';
import { PolicyService } from './policies/policy.service.js';
import { RecommendationController } from './recommendations/recommendation.controller.js';
import { RecommendationHistoryController } from './recommendations/recommendation-history.controller.js';
import { RecommendationRepository } from './recommendations/recommendation.repository.js';
import { RecommendationService } from './recommendations/recommendation.service.js';
import { SearchController } from './search/search.controller.js';
import { SearchRepository } from './search/search.repository.js';
import { SearchService } from './search/search.service.js';
import { FleetRepository } from './fleet/fleet.repository.js';
import { VolumeRepository } from './volumes/volume.repository.js';
import { FleetService } from './fleet/fleet.service.js';
import { VolumeService } from './volumes/volume.service.js';
import { OverviewController } from './series/overview.controller.js';
import { OverviewService } from './series/overview.service.js';
import { WorkingSetHistoryController } from './series/working-set-history.controller.js';
import { WorkingSetHistoryService } from './series/working-set-history.service.js';
import { SeriesController } from './series/series.controller.js';
import { SeriesRepository } from './series/series.repository.js';
import { SeriesService } from './series/series.service.js';
import { WorkloadModule } from './workload/workload.module.js';

/** Window of the rate limit, milliseconds. */
const RATE_LIMIT_WINDOW_MS = 60_000;

@Module({
  imports: [
    EnvModule.forRoot(API_ENV),
    DatabaseModule,
    HealthModule,
    AuthModule,
    AccountsModule,
    AuditModule,
    AgentsModule,
    NotificationsModule,
    WorkloadModule,
    CpuModule,
    ThrottlerModule.forRootAsync({
      inject: [TIERWISE_ENV],
      useFactory: (env: Env<'TIERWISE_API_RATE_LIMIT_PER_MINUTE'>) => ({
        throttlers: [{ ttl: RATE_LIMIT_WINDOW_MS, limit: env.TIERWISE_API_RATE_LIMIT_PER_MINUTE }],
      }),
    }),
  ],
  controllers: [
    FleetController,
    ClusterController,
    HostController,
    VolumeController,
    PolicyController,
    MetricsExportController,
    RecommendationController,
    RecommendationHistoryController,
    ApiKeysController,
    BenchmarksController,
    RollupsController,
    SeriesController,
    OverviewController,
    WorkingSetHistoryController,
    SearchController,
    InstallController,
  ],
  providers: [
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    IdempotencyRepository,
    FleetRepository,
    FleetService,
    ClusterRepository,
    ClusterService,
    HostRepository,
    HostService,
    SharedTierRepository,
    VolumeRepository,
    VolumeService,
    PolicyRepository,
    PolicyService,
    MetricsExportRepository,
    MetricsExportService,
    RecommendationRepository,
    RecommendationService,
    ApiKeysRepository,
    ApiKeysService,
    BenchmarksRepository,
    BenchmarksService,
    RollupsRepository,
    RollupsService,
    SeriesRepository,
    SeriesService,
    OverviewService,
    WorkingSetHistoryService,
    SearchRepository,
    SearchService,
  ],
})
export class AppModule {}
