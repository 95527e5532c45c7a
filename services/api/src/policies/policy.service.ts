import { Injectable } from '@nestjs/common';
import { ApiError, type CachePolicy, DatabaseService, ErrorCode, type Queryable } from '@tierwise/common';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { mapPolicy, type PolicyDto, type PolicyRow, policySummary } from './policy.dto.js';
import { PolicyRepository } from './policy.repository.js';

/**
 * Desired cache policies of volumes: versioned (every change adds one to the version), each
 * change audited in its transaction; the agent reports the version it applied.
 */
@Injectable()
export class PolicyService {
  constructor(
    private readonly database: DatabaseService,
    private readonly policies: PolicyRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * The volume's desired policy and what the agent applied.
   * @throws ApiError not_found when the tenant has no such volume, or the volume has no policy yet.
   */
  async get(auth: Principal, volumeId: string): Promise<PolicyDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      await this.requireVolume(db, auth.tenantId, volumeId);
      const row = await this.policies.get(db, auth.tenantId, volumeId);
      if (!row) {
        throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} has no policy yet`);
      }
      return mapPolicy(row);
    });
  }

  /**
   * Sets the volume's desired policy (a new version).
   * @throws ApiError not_found when the tenant has no such volume.
   */
  async set(auth: Principal, origin: RequestOrigin, volumeId: string, desired: CachePolicy): Promise<PolicyDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      await this.requireVolume(db, auth.tenantId, volumeId);
      return this.setIn(db, auth, origin, volumeId, desired, 'manual');
    });
  }

  /**
   * Writes a new desired version in the caller's transaction and audits it (`volume_policy.set`).
   * The caller has checked that the volume exists.
   */
  async setIn(db: Queryable, auth: Principal, origin: RequestOrigin, volumeId: string, desired: CachePolicy, source: PolicyRow['source']): Promise<PolicyDto> {
    const before = await this.policies.get(db, auth.tenantId, volumeId, true);
    const after = mapPolicy(await this.policies.upsert(db, auth.tenantId, volumeId, desired, source, auth.actor));
    await this.audit.record(db, auth, origin, {
      action: 'volume_policy.set',
      targetKind: 'volume',
      targetId: volumeId,
      before: policySummary(before && mapPolicy(before)),
      after: policySummary(after),
    });
    return after;
  }

  private async requireVolume(db: Queryable, tenantId: string, volumeId: string): Promise<void> {
    if (!(await this.policies.volumeExists(db, tenantId, volumeId))) {
      throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
    }
  }
}
