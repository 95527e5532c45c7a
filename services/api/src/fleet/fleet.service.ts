import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import { type FleetSummaryDto, mapFleetSummary } from './fleet.dto.js';
import type { Principal } from '../identity/principal.js';
import { FleetRepository } from './fleet.repository.js';

@Injectable()
export class FleetService {
  constructor(
    private readonly database: DatabaseService,
    private readonly fleet: FleetRepository,
  ) {}

  /** Inventory counts and I/O totals of the caller's tenant. */
  summary(auth: Principal): Promise<FleetSummaryDto> {
    return this.database.withTenant(auth.tenantId, async (db) => mapFleetSummary(await this.fleet.summary(db, auth.tenantId)));
  }
}
