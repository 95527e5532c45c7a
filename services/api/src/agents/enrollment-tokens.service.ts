import { Injectable } from '@nestjs/common';
import { ApiError, credentialPrefix, DatabaseService, ErrorCode, generateCredential, sha256Hex } from '@tierwise/common';
import { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { timestampSchema } from '../http/timestamp.js';
import { type CreatedEnrollmentTokenDto, type CreateEnrollmentToken, type EnrollmentTokenDto, type EnrollmentTokenListQuery, mapEnrollmentToken } from './enrollment-token.dto.js';
import { EnrollmentTokensRepository } from './enrollment-tokens.repository.js';

/** Tag in front of every enrollment token (agent credentials use `twa_`, API keys `twk_`). */
export const ENROLLMENT_TOKEN_TAG = 'twe_';
const positionSchema = z.tuple([timestampSchema, z.uuid()]);

/** What the audit log keeps of a token: never the token or its digest. */
const summary = (token: EnrollmentTokenDto) => ({ name: token.name, token_prefix: token.token_prefix, expires_at: token.expires_at, used_at: token.used_at });

/**
 * A tenant's enrollment tokens: 256 random bits (shown once, stored as SHA-256), single use,
 * expiring (default 24 h). An admin creates one and gives it to the installer
 * (`install.sh --token`); the agent exchanges it for its own credential (EnrollmentService).
 * Creation and deletion are audited in their transaction.
 */
@Injectable()
export class EnrollmentTokensService {
  constructor(
    private readonly database: DatabaseService,
    private readonly tokens: EnrollmentTokensRepository,
    private readonly audit: AuditService,
  ) {}

  async create(auth: Principal, origin: RequestOrigin, request: CreateEnrollmentToken): Promise<CreatedEnrollmentTokenDto> {
    const secret = generateCredential(ENROLLMENT_TOKEN_TAG);
    return this.database.withTenant(auth.tenantId, async (db) => {
      const row = await this.tokens.insert(db, auth.tenantId, {
        name: request.name,
        sha256: sha256Hex(secret),
        prefix: credentialPrefix(secret),
        lifetimeSeconds: request.expires_in_seconds,
        createdBy: auth.actor,
      });
      const token = mapEnrollmentToken(row);
      await this.audit.record(db, auth, origin, { action: 'enrollment_token.create', targetKind: 'enrollment_token', targetId: token.id, before: null, after: summary(token) });
      return { ...token, token: secret };
    });
  }

  /**
   * One page of the tenant's tokens, newest first.
   * @throws ApiError bad_request for a cursor of another list or status.
   */
  async list(auth: Principal, query: EnrollmentTokenListQuery): Promise<Page<EnrollmentTokenDto>> {
    const kind = `enrollment-tokens:${query.status}`;
    const after = query.cursor ? decodeCursor(query.cursor, kind, positionSchema) : null;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.tokens.list(db, auth.tenantId, query.status, after && { createdAt: after[0], id: after[1] }, query.limit + 1);
      return toPage(rows, query.limit, (row) => mapEnrollmentToken(row), (last) => encodeCursor(kind, [last.created_at.toISOString(), last.id]));
    });
  }

  /**
   * Deletes a token: it enrolls nothing from now on (an agent it enrolled keeps its credential).
   * @throws ApiError not_found when the tenant has no such token.
   */
  async delete(auth: Principal, origin: RequestOrigin, id: string): Promise<EnrollmentTokenDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const row = await this.tokens.delete(db, auth.tenantId, id);
      if (!row) {
        throw new ApiError(ErrorCode.NotFound, `enrollment token ${id} not found`);
      }
      const token = mapEnrollmentToken(row);
      await this.audit.record(db, auth, origin, { action: 'enrollment_token.delete', targetKind: 'enrollment_token', targetId: id, before: summary(token), after: null });
      return token;
    });
  }
}
