import { type CallHandler, type ExecutionContext, HttpStatus, Injectable, type NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { ApiError, DatabaseService, ErrorCode, sha256Hex } from '@tierwise/common';
import type { Response } from 'express';
import { from, type Observable, of } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import type { AuthenticatedRequest } from '../identity/principal.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_METADATA, IDEMPOTENT_REPLAY_HEADER, type IdempotentOptions } from './idempotent.decorator.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** An Idempotency-Key: 1-255 visible ASCII characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** JSON with object keys sorted, so that the same body sent with another key order has the same fingerprint. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item,
  );
}

/**
 * Idempotency keys of the routes marked `@Idempotent()` (draft-ietf-httpapi-idempotency-key-header):
 * the first request with a key runs and its 2xx answer is stored for the tenant; a retry with
 * the same key, method, path and body gets the stored answer (header `Idempotent-Replayed: true`)
 * without running again (unless the answer held a secret: then 409 naming what was created,
 * and the secret is never stored); the same key with anything else is refused with 422
 * `idempotency_key_reused`, and while the first request runs, a retry gets 409
 * `idempotency_key_in_use`. A failed request frees its key. Keys expire after 24 hours.
 * Runs after the authentication guard (the tenant comes from the credential).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly database: DatabaseService,
    private readonly keys: IdempotencyRepository,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.header(IDEMPOTENCY_KEY_HEADER);
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_METADATA, context.getHandler());
    if (key === undefined || !options || !request.principal) {
      return next.handle();
    }
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(ErrorCode.BadRequest, `${IDEMPOTENCY_KEY_HEADER} must be 1-255 visible ASCII characters`);
    }
    const tenantId = request.principal.tenantId;
    const fingerprint = sha256Hex(`${request.method} ${request.originalUrl}\n${canonicalJson(request.body)}`);
    const claim = await this.database.withTenant(tenantId, (db) => this.keys.claim(db, tenantId, key, fingerprint));
    const response = context.switchToHttp().getResponse<Response>();
    switch (claim.state) {
      case 'mismatch':
        throw new ApiError(ErrorCode.IdempotencyKeyReused, `${IDEMPOTENCY_KEY_HEADER} ${key} was used with another method, path or body`);
      case 'in_progress':
        throw new ApiError(ErrorCode.IdempotencyKeyInUse, `a request with ${IDEMPOTENCY_KEY_HEADER} ${key} is still running`);
      case 'done':
        if (claim.redacted) {
          throw new ApiError(
            ErrorCode.Conflict,
            `the request with ${IDEMPOTENCY_KEY_HEADER} ${key} succeeded already (id ${(claim.body as { id?: string } | null)?.id ?? 'unknown'}); its answer held a secret, shown only once`,
          );
        }
        response.setHeader(IDEMPOTENT_REPLAY_HEADER, 'true');
        response.status(claim.status);
        return of(claim.body);
      case 'claimed': {
        const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
        const secrets = options.secretFields ?? [];
        const stored = (body: unknown) => (secrets.length > 0 && body && typeof body === 'object' ? Object.fromEntries(Object.entries(body).filter(([field]) => !secrets.includes(field))) : body);
        return next.handle().pipe(
          mergeMap((body: unknown) =>
            from(this.database.withTenant(tenantId, (db) => this.keys.complete(db, tenantId, key, status, stored(body), secrets.length > 0)).then(() => body)),
          ),
          catchError((error: unknown) => from(this.database.withTenant(tenantId, (db) => this.keys.release(db, tenantId, key)).then(() => Promise.reject(error)))),
        );
      }
    }
  }
}
