import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AgentSelfModule, DatabaseModule, type Env, EnvModule, HealthModule, TIERWISE_ENV } from '@tierwise/common';
import { EnrollmentRateLimitGuard } from './agents/enrollment-rate-limit.guard.js';
import { INGEST_ENV } from './ingest.constants.js';
import { PoliciesModule } from './policies/policies.module.js';
import { TelemetryModule } from './telemetry/telemetry.module.js';

const ENROLL_RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Ingest is the agent gateway: every route an agent calls, under one base URL
 * (docs/agent-gateway.md): telemetry, policy pull, enrollment and health reports.
 */
@Module({
  imports: [
    EnvModule.forRoot(INGEST_ENV),
    DatabaseModule,
    HealthModule,
    TelemetryModule,
    PoliciesModule,
    AgentSelfModule.register('gateway'),
    ThrottlerModule.forRootAsync({
      inject: [TIERWISE_ENV],
      useFactory: (env: Env<'TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE'>) => ({
        throttlers: [{ ttl: ENROLL_RATE_LIMIT_WINDOW_MS, limit: env.TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE }],
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: EnrollmentRateLimitGuard }],
})
export class AppModule {}
