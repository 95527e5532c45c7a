import { randomBytes } from 'node:crypto';
import type { Queryable } from '@tierwise/common';
import argon2 from 'argon2';
import { ARGON2ID_OPTIONS } from '../accounts/password-hasher.js';

/** A portal login made by the seed command; the password is shown only here. */
export interface SeededLogin {
  login_email: string;
  login_password: string;
}

/**
 * Makes `email` a verified portal user and the owner of `tenantId` with a fresh random password
 * (18 random bytes, base64url: 24 characters, 144 bits), hashed with the api's argon2id
 * parameters. An existing user of that address gets the new password and is moved
 * to this tenant: its other memberships (and their sessions) are dropped, so that logging in
 * lands in the tenant just seeded. Runs as tierwise_owner inside the caller's transaction.
 *
 * @param email a lower-case e-mail address (users_email_check).
 */
export async function seedLogin(db: Queryable, tenantId: string, email: string, displayName: string): Promise<SeededLogin> {
  const password = randomBytes(18).toString('base64url');
  const hash = await argon2.hash(password, ARGON2ID_OPTIONS);
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (email, display_name, password_hash, email_verified_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (email) DO UPDATE SET password_hash = EXCLUDED.password_hash,
         email_verified_at = coalesce(users.email_verified_at, now())
     RETURNING id`,
    [email, displayName, hash],
  );
  const userId = user.rows[0].id;
  await db.query('DELETE FROM memberships WHERE user_id = $1 AND tenant_id <> $2', [userId, tenantId]);
  await db.query(`INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')`, [tenantId, userId]);
  return { login_email: email, login_password: password };
}
