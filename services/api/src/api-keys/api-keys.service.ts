import { Injectable } from '@nestjs/common';
import { ApiError, credentialPrefix, DatabaseService, ErrorCode, generateCredential, sha256Hex } from '@tierwise/common';
import { z } from 'zod';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import type { RequestOrigin } from '../http/request-origin.js';
import { type ApiKeyDto, type ApiKeyListQuery, type CreateApiKey, type CreatedApiKeyDto, mapApiKey } from './api-key.dto.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { timestampSchema } from '../http/timestamp.js';

/** Tag in front of every API key (agent tokens use `twa_`). */
export const API_KEY_TAG = 'twk_';
const positionSchema = z.tuple([timestampSchema, z.uuid()]);

/** What the audit log keeps of a key: never its secret or digest. */
const summary = (key: ApiKeyDto) => ({ name: key.name, scope: key.scope, key_prefix: key.key_prefix, revoked_at: key.revoked_at });

/**
 * A tenant's API keys: created with 256 random bits (shown once, stored as SHA-256), listed
 * without the secret, revoked (a revoked key is refused by authenticate_api_key at once).
 * Every change is audited in its transaction.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly database: DatabaseService,
    private readonly keys: ApiKeysRepository,
    private readonly audit: AuditService,
  ) {}

  async create(auth: Principal, origin: RequestOrigin, request: CreateApiKey): Promise<CreatedApiKeyDto> {
    const secret = generateCredential(API_KEY_TAG);
    return this.database.withTenant(auth.tenantId, async (db) => {
      const row = await this.keys.insert(db, auth.tenantId, {
        name: request.name,
        scope: request.scope,
        sha256: sha256Hex(secret),
        prefix: credentialPrefix(secret),
        createdBy: auth.actor,
      });
      const key = mapApiKey(row);
      await this.audit.record(db, auth, origin, { action: 'api_key.create', targetKind: 'api_key', targetId: key.id, before: null, after: summary(key) });
      return { ...key, key: secret };
    });
  }

  /**
   * One page of the tenant's keys, newest first.
   * @throws ApiError bad_request for a cursor of another list or status.
   */
  async list(auth: Principal, query: ApiKeyListQuery): Promise<Page<ApiKeyDto>> {
    const kind = `api-keys:${query.status}`;
    const after = query.cursor ? decodeCursor(query.cursor, kind, positionSchema) : null;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.keys.list(db, auth.tenantId, query.status, after && { createdAt: after[0], id: after[1] }, query.limit + 1);
      return toPage(rows, query.limit, mapApiKey, (last) => encodeCursor(kind, [last.created_at.toISOString(), last.id]));
    });
  }

  /**
   * Revokes a key: from the next request on it is refused (401).
   * @throws ApiError not_found when the tenant has no such key; conflict when it is revoked already.
   */
  async revoke(auth: Principal, origin: RequestOrigin, id: string): Promise<ApiKeyDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const found = await this.keys.lock(db, auth.tenantId, id);
      if (!found) {
        throw new ApiError(ErrorCode.NotFound, `API key ${id} not found`);
      }
      if (found.revoked_at) {
        throw new ApiError(ErrorCode.Conflict, `API key ${id} was revoked at ${found.revoked_at.toISOString()}`);
      }
      const key = mapApiKey(await this.keys.revoke(db, auth.tenantId, id));
      await this.audit.record(db, auth, origin, { action: 'api_key.revoke', targetKind: 'api_key', targetId: id, before: summary(mapApiKey(found)), after: summary(key) });
      return key;
    });
  }
}
