import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode, loadUnsubscribeKey, verifyUnsubscribeToken } from '@tierwise/common';

/** The e-mail channel a valid unsubscribe token names. */
export interface Subscription {
  /** The recipient address, masked for display (o***@example.com). */
  masked: string;
  unsubscribedAt: Date | null;
}

/** `ops@example.com` → `o***@example.com`: enough to recognise, not to harvest. */
function mask(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, 1)}***${address.slice(at)}`;
}

/**
 * Checks unsubscribe tokens (services/common unsubscribe-token, key in
 * notification_signing_keys) and unsubscribes the channel they name, in its tenant's transaction.
 */
@Injectable()
export class UnsubscribeService {
  private key: Buffer | undefined;

  constructor(private readonly database: DatabaseService) {}

  /**
   * The subscription a token names, unchanged.
   * @throws ApiError bad_request for a malformed or forged token; not_found when the channel is gone.
   */
  find(token: string): Promise<Subscription> {
    return this.apply(token, 'SELECT target, unsubscribed_at FROM notification_channels WHERE id = $1 AND kind = $2');
  }

  /**
   * Unsubscribes the channel a token names (idempotent: a second call keeps the first time).
   * @throws ApiError bad_request for a malformed or forged token; not_found when the channel is gone.
   */
  unsubscribe(token: string): Promise<Subscription> {
    return this.apply(
      token,
      `UPDATE notification_channels SET unsubscribed_at = coalesce(unsubscribed_at, now())
        WHERE id = $1 AND kind = $2 RETURNING target, unsubscribed_at`,
    );
  }

  private async apply(token: string, sql: string): Promise<Subscription> {
    this.key ??= await loadUnsubscribeKey(this.database.pool);
    const subject = verifyUnsubscribeToken(this.key, token);
    if (!subject) throw new ApiError(ErrorCode.BadRequest, 'the unsubscribe link is malformed or was not issued by Tierwise');
    const { rows } = await this.database.withTenant(subject.tenantId, (db) => db.query<{ target: string; unsubscribed_at: Date | null }>(sql, [subject.channelId, 'email']));
    if (rows.length !== 1) throw new ApiError(ErrorCode.NotFound, 'this subscription no longer exists');
    return { masked: mask(rows[0]!.target), unsubscribedAt: rows[0]!.unsubscribed_at };
  }
}
