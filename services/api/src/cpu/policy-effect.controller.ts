import { Controller, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { PolicyEffectDto } from './policy-effect.dto.js';
import { PolicyEffectService } from './policy-effect.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/policy-effect')
export class PolicyEffectController {
  constructor(private readonly effects: PolicyEffectService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({
    summary: "How a volume's latency and CPU moved across its latest applied policy change: storage-bound CPU, read as work done or as a cost",
    description:
      "The volume's 10 s rollup windows since the agent reported the policy applied (at most 600 s) against as long just before it: VM-observed latency, IOPS, the host's and the consumer's CPU and CPU per I/O, a verdict and one sentence (docs/workload.md \"Storage-bound CPU\").",
    ok: PolicyEffectDto,
    errors: { 400: 'malformed volumeId', 404: 'the tenant has no such volume, or its agent applied no policy yet' },
  })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string): Promise<PolicyEffectDto> {
    return this.effects.get(auth, volumeId);
  }
}
