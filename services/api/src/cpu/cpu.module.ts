import { Module } from '@nestjs/common';
import { PolicyEffectController } from './policy-effect.controller.js';
import { PolicyEffectRepository } from './policy-effect.repository.js';
import { PolicyEffectService } from './policy-effect.service.js';

/** Storage-bound CPU: how a volume's latency and CPU moved across a policy change (GET /v1/volumes/{volumeId}/policy-effect). */
@Module({
  controllers: [PolicyEffectController],
  providers: [PolicyEffectRepository, PolicyEffectService],
})
export class CpuModule {}
