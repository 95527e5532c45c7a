import { Module } from '@nestjs/common';
import { VolumeRepository } from '../volumes/volume.repository.js';
import { FioJobController } from './fio-job.controller.js';
import { WorkloadController } from './workload.controller.js';
import { WorkloadRepository } from './workload.repository.js';
import { WorkloadService } from './workload.service.js';

/** The vscsiStats workload of a volume (GET /v1/volumes/{volumeId}/workload) and the fio job made from it (GET .../fio-job). */
@Module({
  controllers: [WorkloadController, FioJobController],
  providers: [WorkloadRepository, WorkloadService, VolumeRepository],
})
export class WorkloadModule {}
