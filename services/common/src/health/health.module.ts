import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';

/** Serves `GET /healthz`; needs the DatabaseModule. */
@Module({ controllers: [HealthController] })
export class HealthModule {}
