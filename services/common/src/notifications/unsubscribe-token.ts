import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Queryable } from '../database/transaction.js';

/** What an unsubscribe link names: the e-mail channel (one recipient) of a tenant. */
export interface UnsubscribeSubject {
  tenantId: string;
  channelId: string;
}

const uuid = z.uuid();

/**
 * Reads the HMAC key of unsubscribe links (notification_signing_keys, purpose 'unsubscribe',
 * ≥ 32 random bytes written by db/migrations/1700000000500_notification_settings.sql).
 *
 * @throws Error when the key row is missing (database not migrated).
 */
export async function loadUnsubscribeKey(db: Queryable): Promise<Buffer> {
  const { rows } = await db.query<{ key: Buffer }>(`SELECT key FROM notification_signing_keys WHERE purpose = 'unsubscribe'`);
  if (rows.length !== 1) throw new Error('notification_signing_keys has no unsubscribe key (run the migrations)');
  return rows[0]!.key;
}

function mac(key: Buffer, subject: UnsubscribeSubject): Buffer {
  return createHmac('sha256', key).update(`unsubscribe\0${subject.tenantId}\0${subject.channelId}`).digest();
}

/**
 * A signed unsubscribe token: `<tenant id>.<channel id>.<base64url HMAC-SHA256>` (RFC 2104),
 * safe in a URL query. It does not expire: an old mail's link keeps working (RFC 8058 §3.1
 * asks that the one-click URI keep working for a long time).
 */
export function signUnsubscribeToken(key: Buffer, subject: UnsubscribeSubject): string {
  return `${subject.tenantId}.${subject.channelId}.${mac(key, subject).toString('base64url')}`;
}

/**
 * Checks a token made by {@link signUnsubscribeToken} with the same key (constant-time compare).
 *
 * @returns the tenant and channel it names, or null when the token is malformed or forged.
 */
export function verifyUnsubscribeToken(key: Buffer, token: string): UnsubscribeSubject | null {
  const [tenantId, channelId, signature, ...rest] = token.split('.');
  if (rest.length > 0 || !uuid.safeParse(tenantId).success || !uuid.safeParse(channelId).success || !signature) return null;
  const subject = { tenantId: tenantId!, channelId: channelId! };
  const expected = mac(key, subject);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected) ? subject : null;
}
