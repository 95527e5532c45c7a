import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, type Queryable } from '@tierwise/common';
import { AccountTransactions } from '../identity/account-transaction.js';

/** PostgreSQL unique_violation (Appendix A, "Error Codes"). */
const UNIQUE_VIOLATION = '23505';

/** A user as find_login returns it: the credentials. */
export interface LoginRow {
  user_id: string;
  password_hash: string | null;
  email_verified: boolean;
}

/** A user as the api shows it. */
export interface UserRow {
  id: string;
  email: string;
  display_name: string;
}

/** Single-use e-mail tokens (account_tokens.purpose). */
export type AccountTokenPurpose = 'verify-email' | 'reset-password';

/** SQL of users, their e-mail tokens and OIDC identities (db/migrations/1700000000300_accounts.sql). */
@Injectable()
export class UsersRepository {
  constructor(private readonly transactions: AccountTransactions) {}

  /** The user with this e-mail address, through find_login (no scope needed), or null. */
  async findLogin(email: string): Promise<LoginRow | null> {
    const rows = await this.transactions.lookup<LoginRow>('SELECT * FROM find_login($1)', [email]);
    return rows[0] ?? null;
  }

  /** The user linked to the OIDC (issuer, subject), else the user with `email`, through find_oidc_user. */
  async findOidcUser(issuer: string, subject: string, email: string): Promise<{ user_id: string; linked: boolean; email_verified: boolean } | null> {
    const rows = await this.transactions.lookup<{ user_id: string; linked: boolean; email_verified: boolean }>(
      'SELECT * FROM find_oidc_user($1, $2, $3)',
      [issuer, subject, email],
    );
    return rows[0] ?? null;
  }

  /** Marks an e-mail token used and returns its user, once and before expiry (consume_account_token), or null. */
  async consumeToken(tokenSha256: string, purpose: AccountTokenPurpose): Promise<string | null> {
    const rows = await this.transactions.lookup<{ user_id: string }>('SELECT user_id FROM consume_account_token($1, $2)', [tokenSha256, purpose]);
    return rows[0]?.user_id ?? null;
  }

  /**
   * Inserts a user (the transaction's tierwise.user_id must be `user.id`); email in lower case.
   * @throws ApiError 409 `conflict` when the address has an account already (created concurrently).
   */
  async insert(db: Queryable, user: { id: string; email: string; displayName: string; passwordHash: string | null; verified: boolean }): Promise<void> {
    await db
      .query(
        `INSERT INTO users (id, email, display_name, password_hash, email_verified_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END)`,
        [user.id, user.email, user.displayName, user.passwordHash, user.verified],
      )
      .catch((error: { code?: string }) => {
        throw error.code === UNIQUE_VIOLATION ? new ApiError(ErrorCode.Conflict, `${user.email} has an account already; log in`, { cause: error }) : error;
      });
  }

  /** The user `id` as visible in the transaction's scope, or null. */
  async get(db: Queryable, id: string): Promise<UserRow | null> {
    const { rows } = await db.query<UserRow>('SELECT id, email, display_name FROM users WHERE id = $1', [id]);
    return rows[0] ?? null;
  }

  /** Stores the password's new hash (a login found it hashed with older argon2 parameters). */
  async rehashPassword(db: Queryable, id: string, passwordHash: string): Promise<void> {
    await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
  }

  /** Marks the e-mail address verified (a token from a mail sent there was used). */
  async markVerified(db: Queryable, id: string): Promise<void> {
    await db.query('UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1', [id]);
  }

  /**
   * Sets (or, with null, removes) the password and marks the e-mail verified
   * (only its owner could have used the reset link or OIDC identity that leads here).
   */
  async setPassword(db: Queryable, id: string, passwordHash: string | null): Promise<void> {
    await db.query(
      `UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1`,
      [id, passwordHash],
    );
  }

  /** Stores a single-use e-mail token (SHA-256 only) for `id`, valid `seconds`. */
  async insertToken(db: Queryable, id: string, purpose: AccountTokenPurpose, tokenSha256: string, seconds: number): Promise<void> {
    await db.query(
      `INSERT INTO account_tokens (token_sha256, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [tokenSha256, id, purpose, seconds],
    );
  }

  /** Links an OIDC identity to the user `id` (idempotent). */
  async linkOidc(db: Queryable, id: string, issuer: string, subject: string): Promise<void> {
    await db.query('INSERT INTO oidc_identities (issuer, subject, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [issuer, subject, id]);
  }
}
