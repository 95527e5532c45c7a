import { Injectable } from '@nestjs/common';
import { DatabaseService, type Queryable } from '@tierwise/common';
import { z } from 'zod';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { type AuditEntryDto, type AuditListQuery, mapAuditEntry } from './audit.dto.js';
import { AuditRepository } from './audit.repository.js';

/** What changed: `action` is `<target kind>.<verb>` (e.g. `api_key.revoke`); before/after summarise the target. */
export interface AuditChange {
  action: string;
  targetKind: string;
  targetId: string;
  /** The target before the change; null when it was created. */
  before: object | null;
  /** The target after the change; null when it was deleted. */
  after: object | null;
}

const CURSOR_KIND = 'audit-log';
const positionSchema = z.tuple([z.string().regex(/^\d+$/)]);

/**
 * The audit log of every change: who (actor kind and id), what (action, target, before/after),
 * when (commit time of the entry) and from where (client address, user agent).
 * Every service that changes something calls {@link AuditService.record} with the client of the
 * transaction that makes the change, so the change and its entry commit or roll back together.
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly database: DatabaseService,
    private readonly audit: AuditRepository,
  ) {}

  /**
   * Appends the entry of a change, in the change's transaction.
   * @param db the client of the tenant's transaction making the change.
   */
  async record(db: Queryable, principal: Principal, origin: RequestOrigin, change: AuditChange): Promise<void> {
    await this.audit.insert(db, {
      tenantId: principal.tenantId,
      actorKind: principal.actor.kind,
      actorId: principal.actor.id,
      ...change,
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }

  /**
   * One page of the tenant's audit log, newest first.
   * @throws ApiError bad_request for a cursor that is not a next_cursor of this list.
   */
  async list(principal: Principal, query: AuditListQuery): Promise<Page<AuditEntryDto>> {
    const beforeId = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, positionSchema)[0] : undefined;
    return this.database.withTenant(principal.tenantId, async (db) => {
      const filter = { action: query.action, actorId: query.actor_id, targetId: query.target_id, since: query.since, beforeId };
      const rows = await this.audit.list(db, principal.tenantId, filter, query.limit + 1);
      return toPage(rows, query.limit, mapAuditEntry, (last) => encodeCursor(CURSOR_KIND, [last.id]));
    });
  }
}
