import { Endpoint } from '@tierwise/common';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { BenchmarksDto } from './benchmarks.dto.js';
import { BenchmarksService } from './benchmarks.service.js';

@ApiTags('benchmarks')
@Controller('v1/benchmarks')
export class BenchmarksController {
  constructor(private readonly benchmarks: BenchmarksService) {}

  @Get()
  @Authenticated({ permission: Permission.FleetRead })
  @Endpoint({
    summary: 'Fleet benchmarks: where the tenant stands in its cohorts',
    description:
      'Cohorts by tier media and workload class over the last 7 days: latency percentiles per block-size bin, working set / capacity and read share. ' +
      'A tenant counts in a cohort after 7 days of data, once per independent actor (the e-mail domain of its verified owner); cohort figures are published only for ' +
      'cohorts of at least 5 such actors, each weighing the same, as quartiles of histograms with Laplace noise (differential privacy, ε = 1 per figure and day), ' +
      'and the caller\'s standing is its band among those quartiles. No other tenant\'s own figures are returned (docs/benchmarks.md).',
    ok: BenchmarksDto,
  })
  get(@Auth() auth: Principal): Promise<BenchmarksDto> {
    return this.benchmarks.get(auth);
  }
}
