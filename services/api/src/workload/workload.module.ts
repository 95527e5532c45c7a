import { Module } from '@nestjs/common';
import { WorkloadController } from './workload.controller.js';
import { WorkloadRepository } from './workload.repository.js';
import { WorkloadService } from './workload.service.js';

/** The vscsiStats workload of a volume (GET /v1/volumes/{volumeId}/workload). */
@Module({
  controllers: [WorkloadController],
  providers: [WorkloadRepository, WorkloadService],
})
export class WorkloadModule {}
