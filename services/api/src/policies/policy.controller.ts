import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { volumeIdSchema } from '../volumes/volume-query.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import { type DesiredPolicyBody, desiredPolicySchema, PolicyDto } from './policy.dto.js';
import { PolicyService } from './policy.service.js';

@ApiTags('volumes')
@Controller('v1/volumes/:volumeId/policy')
export class PolicyController {
  constructor(private readonly policies: PolicyService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: "The volume's desired cache policy and the version the agent applied", ok: PolicyDto, errors: { 400: 'malformed volumeId', 404: 'no such volume, or no policy yet' } })
  get(@Auth() auth: Principal, @Param('volumeId', { schema: volumeIdSchema }) volumeId: string): Promise<PolicyDto> {
    return this.policies.get(auth, volumeId);
  }

  @Put()
  @Authenticated({ permission: Permission.PolicyWrite })
  @Endpoint({ summary: "Set the volume's desired cache policy (mode WT or WB+n, tier size, media, eviction): a new version", ok: PolicyDto, errors: { 400: 'malformed volumeId or policy', 404: 'the tenant has no such volume', 409: "a concurrent change of the volume's policy came first" } })
  set(
    @Auth() auth: Principal,
    @Origin() origin: RequestOrigin,
    @Param('volumeId', { schema: volumeIdSchema }) volumeId: string,
    @Body({ schema: desiredPolicySchema }) body: DesiredPolicyBody,
  ): Promise<PolicyDto> {
    return this.policies.set(auth, origin, volumeId, { write_back_copies: null, ...body });
  }
}
