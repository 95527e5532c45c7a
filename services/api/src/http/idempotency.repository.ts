import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';

/** How long the answer of a keyed request is kept for retries (Stripe keeps 24 h too). */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
/** A key claimed this long ago without an answer is taken as abandoned (the api died mid-request). */
export const IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS = 60;

/** The state of a key as found when a request claims it. */
export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'in_progress' }
  | { state: 'mismatch' }
  | { state: 'done'; status: number; body: unknown; redacted: boolean };

@Injectable()
export class IdempotencyRepository {
  /**
   * Claims `key` for a request with `fingerprint`: a new (or expired, or abandoned) key is
   * claimed; a finished one gives its answer when the fingerprint matches, `mismatch` otherwise.
   * Expired keys of the tenant are deleted on the way.
   */
  async claim(db: Queryable, tenantId: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    await db.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND expires_at < now()', [tenantId]);
    const inserted = await db.query(
      `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now(), expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.response_status IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $5)`,
      [tenantId, key, fingerprint, IDEMPOTENCY_KEY_TTL_SECONDS, IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS],
    );
    if (inserted.rowCount === 1) {
      return { state: 'claimed' };
    }
    const { rows } = await db.query<{ fingerprint: string; response_status: number | null; response_body: unknown; response_redacted: boolean }>(
      'SELECT fingerprint, response_status, response_body, response_redacted FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
      [tenantId, key],
    );
    const [found] = rows;
    if (found.fingerprint !== fingerprint) {
      return { state: 'mismatch' };
    }
    return found.response_status === null
      ? { state: 'in_progress' }
      : { state: 'done', status: found.response_status, body: found.response_body, redacted: found.response_redacted };
  }

  /**
   * Stores the answer of the request that claimed `key`.
   * @param redacted the body lacks the answer's secrets (it cannot be replayed).
   */
  async complete(db: Queryable, tenantId: string, key: string, status: number, body: unknown, redacted: boolean): Promise<void> {
    await db.query('UPDATE idempotency_keys SET response_status = $3, response_body = $4, response_redacted = $5 WHERE tenant_id = $1 AND key = $2', [
      tenantId,
      key,
      status,
      JSON.stringify(body ?? null),
      redacted,
    ]);
  }

  /** Frees `key` after its request failed, so that a retry runs again. */
  async release(db: Queryable, tenantId: string, key: string): Promise<void> {
    await db.query('DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND response_status IS NULL', [tenantId, key]);
  }
}
