import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, DEFAULT_EVICTION, ErrorCode, type Queryable, TIER_BLOCK_BYTES } from '@tierwise/common';
import { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import type { CachePolicy } from '@tierwise/common';
import { PolicyService } from '../policies/policy.service.js';
import {
  type AppliedRecommendationDto,
  type ApplyRecommendation,
  type DismissRecommendation,
  mapRecommendation,
  mapRecommendationHistory,
  type RecommendationHistoryItemDto,
  type RecommendationHistoryQuery,
  type RecommendationItemDto,
  type RecommendationListQuery,
  type RecommendationListRow,
} from './recommendation.dto.js';
import { RecommendationRepository } from './recommendation.repository.js';
import { timestampSchema } from '../http/timestamp.js';

const CURSOR_KIND = 'recommendations';
const HISTORY_CURSOR_KIND = 'recommendation-history';
const positionSchema = z.tuple([timestampSchema, z.string()]);
const historyPositionSchema = z.tuple([timestampSchema, z.string().regex(/^[0-9]{1,19}$/)]);

/**
 * The desired policy a recommendation stands for: its mode (recommendations.policy is
 * 'write-through' or 'write-back'), tier size rounded up to whole 4 KiB blocks, media, and
 * what the caller chose for eviction and WB+n copies. Without a chosen eviction, the one the
 * recommendation predicts for; for an older recommendation without one, DEFAULT_EVICTION.
 */
export function policyOfRecommendation(recommendation: RecommendationListRow, choice: ApplyRecommendation): CachePolicy {
  const writeBack = recommendation.policy.startsWith('write-back');
  return {
    mode: writeBack ? 'write-back' : 'write-through',
    write_back_copies: writeBack ? choice.write_back_copies : null,
    tier_bytes: Math.ceil(recommendation.tier_bytes / TIER_BLOCK_BYTES) * TIER_BLOCK_BYTES,
    media: recommendation.media,
    eviction: choice.eviction ?? recommendation.eviction ?? DEFAULT_EVICTION,
  };
}

/**
 * Recommendations (written by the stream jobs) and the tenant's decisions on them: applying one
 * writes the volume's desired policy; dismissing one closes it. A decision holds for the version
 * it was made on: a recommendation that changes materially is open again. Every decision is
 * audited in its transaction.
 */
@Injectable()
export class RecommendationService {
  constructor(
    private readonly database: DatabaseService,
    private readonly recommendations: RecommendationRepository,
    private readonly policies: PolicyService,
    private readonly audit: AuditService,
  ) {}

  /**
   * One page of the tenant's recommendations, newest first.
   * @throws ApiError bad_request for a cursor of another list.
   */
  async list(auth: Principal, query: RecommendationListQuery): Promise<Page<RecommendationItemDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, positionSchema) : undefined;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const filter = { status: query.status, media: query.media, hostId: query.host_id, after: after && { createdAt: after[0], volumeId: after[1] } };
      const rows = await this.recommendations.list(db, auth.tenantId, filter, query.limit + 1);
      return toPage(rows, query.limit, mapRecommendation, (last) => encodeCursor(CURSOR_KIND, [last.created_at.toISOString(), last.volume_id]));
    });
  }

  /**
   * One page of the volume's past predictions, newest first, each with the hit ratio measured
   * while it ran (null when it never ran at its tier size).
   * @throws ApiError bad_request for a cursor of another list; not_found when the tenant has no such volume.
   */
  async history(auth: Principal, volumeId: string, query: RecommendationHistoryQuery): Promise<Page<RecommendationHistoryItemDto>> {
    const after = query.cursor ? decodeCursor(query.cursor, HISTORY_CURSOR_KIND, historyPositionSchema) : undefined;
    return this.database.withTenant(auth.tenantId, async (db) => {
      if (!(await this.recommendations.volumeExists(db, auth.tenantId, volumeId))) {
        throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} not found`);
      }
      const rows = await this.recommendations.history(db, auth.tenantId, volumeId, after && { createdAt: after[0], id: after[1] }, query.limit + 1);
      return toPage(rows, query.limit, mapRecommendationHistory, (last) => encodeCursor(HISTORY_CURSOR_KIND, [last.created_at.toISOString(), last.id]));
    });
  }

  /** @throws ApiError not_found when the volume has no recommendation (or the tenant no such volume). */
  async get(auth: Principal, volumeId: string): Promise<RecommendationItemDto> {
    return this.database.withTenant(auth.tenantId, async (db) => mapRecommendation(await this.open(db, auth, volumeId, { forUpdate: false })));
  }

  /**
   * Applies the volume's recommendation: its tier size, media and mode become the volume's new
   * desired policy version, and the recommendation is marked applied.
   * @throws ApiError not_found without a recommendation; conflict when it was decided already or
   *   changed since the `created_at` the caller saw.
   */
  async apply(auth: Principal, origin: RequestOrigin, volumeId: string, choice: ApplyRecommendation): Promise<AppliedRecommendationDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const recommendation = await this.open(db, auth, volumeId, { forUpdate: true, seenCreatedAt: choice.created_at });
      const policy = await this.policies.setIn(db, auth, origin, volumeId, policyOfRecommendation(recommendation, choice), 'recommendation');
      await this.recommendations.decide(db, auth.tenantId, volumeId, { decision: 'applied', reason: null, policyVersion: policy.version, actor: auth.actor });
      await this.audit.record(db, auth, origin, {
        action: 'recommendation.apply',
        targetKind: 'volume',
        targetId: volumeId,
        before: { status: 'open', created_at: recommendation.created_at.toISOString() },
        after: { status: 'applied', policy_version: policy.version },
      });
      return { recommendation: mapRecommendation((await this.recommendations.get(db, auth.tenantId, volumeId))!), policy };
    });
  }

  /**
   * Dismisses the volume's recommendation (this version of it).
   * @throws ApiError not_found without a recommendation; conflict when it was decided already.
   */
  async dismiss(auth: Principal, origin: RequestOrigin, volumeId: string, body: DismissRecommendation): Promise<RecommendationItemDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const recommendation = await this.open(db, auth, volumeId, { forUpdate: true });
      const reason = body.reason || null;
      await this.recommendations.decide(db, auth.tenantId, volumeId, { decision: 'dismissed', reason, policyVersion: null, actor: auth.actor });
      await this.audit.record(db, auth, origin, {
        action: 'recommendation.dismiss',
        targetKind: 'volume',
        targetId: volumeId,
        before: { status: 'open', created_at: recommendation.created_at.toISOString() },
        after: { status: 'dismissed', reason },
      });
      return mapRecommendation((await this.recommendations.get(db, auth.tenantId, volumeId))!);
    });
  }

  /** The volume's recommendation; for a decision (`forUpdate`), locked and required to be open. */
  private async open(db: Queryable, auth: Principal, volumeId: string, options: { forUpdate: boolean; seenCreatedAt?: string }): Promise<RecommendationListRow> {
    const recommendation = await this.recommendations.get(db, auth.tenantId, volumeId, options.forUpdate);
    if (!recommendation) {
      throw new ApiError(ErrorCode.NotFound, `volume ${volumeId} has no recommendation`);
    }
    if (!options.forUpdate) {
      return recommendation;
    }
    const createdAt = recommendation.created_at.toISOString();
    if (options.seenCreatedAt !== undefined && new Date(options.seenCreatedAt).toISOString() !== createdAt) {
      throw new ApiError(ErrorCode.Conflict, `the recommendation of volume ${volumeId} changed since ${options.seenCreatedAt} (now created_at ${createdAt})`);
    }
    if (recommendation.status !== 'open') {
      throw new ApiError(ErrorCode.Conflict, `the recommendation of volume ${volumeId} (created_at ${createdAt}) is ${recommendation.status} already`);
    }
    return recommendation;
  }
}
