import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import { sideOf, verdictOf } from './policy-effect.js';
import type { PolicyEffectDto } from './policy-effect.dto.js';
import { PolicyEffectRepository } from './policy-effect.repository.js';

/** Longest span compared on each side of a change, seconds (docs/workload.md "Storage-bound CPU"). */
const MAX_SPAN_SECONDS = 600;
/** The rollup windows read, seconds. */
const WINDOW_SECONDS = 10;

@Injectable()
export class PolicyEffectService {
  constructor(
    private readonly database: DatabaseService,
    private readonly effects: PolicyEffectRepository,
  ) {}

  /**
   * The volume's latency and CPU before and after its latest applied policy change: the time
   * since the change (at most 600 s, whole 10 s windows) against as long just before it.
   * @throws ApiError not_found when the tenant has no such volume, or its agent applied no policy yet.
   */
  get(auth: Principal, volumeId: string, now = new Date()): Promise<PolicyEffectDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const { exists, change } = await this.effects.appliedChange(db, auth.tenantId, volumeId);
      if (!exists) throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      if (!change) throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} has no applied policy change yet`);
      const at = Math.ceil(change.appliedAt.getTime() / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
      const since = Math.floor((now.getTime() / 1000 - at) / WINDOW_SECONDS) * WINDOW_SECONDS;
      const span = Math.max(0, Math.min(MAX_SPAN_SECONDS, since));
      const [before, after] = await Promise.all([
        this.effects.windows(db, auth.tenantId, { volumeId, from: new Date((at - span - WINDOW_SECONDS) * 1000), to: new Date((at - WINDOW_SECONDS) * 1000) }),
        this.effects.windows(db, auth.tenantId, { volumeId, from: new Date(at * 1000), to: new Date((at + span) * 1000) }),
      ]);
      const [beforeSide, afterSide] = [sideOf(before, WINDOW_SECONDS), sideOf(after, WINDOW_SECONDS)];
      return {
        volume_id: volumeId,
        policy_version: change.version,
        applied_at: change.appliedAt.toISOString(),
        span_seconds: span,
        before: beforeSide,
        after: afterSide,
        ...verdictOf(beforeSide, afterSide, change),
      };
    });
  }
}
