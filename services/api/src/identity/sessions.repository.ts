import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { Role } from './principal.js';
import { AccountTransactions } from './account-transaction.js';

/** A live session as authenticate_session returns it. */
export interface SessionRow {
  session_id: string;
  user_id: string;
  tenant_id: string;
  role: Role;
  expires_at: Date;
}

/** SQL of sessions (tokens stored as SHA-256 hex only). */
@Injectable()
export class SessionsRepository {
  constructor(private readonly transactions: AccountTransactions) {}

  /** The live session of a cookie token (idle within `idleSeconds`), stamping last_seen_at; or null. */
  async authenticate(tokenSha256: string, idleSeconds: number): Promise<SessionRow | null> {
    const rows = await this.transactions.lookup<SessionRow>('SELECT * FROM authenticate_session($1, $2)', [tokenSha256, idleSeconds]);
    return rows[0] ?? null;
  }

  /** Creates a session of `userId` in the scoped tenant, ending after `seconds`; returns its id and expiry. */
  async insert(
    db: Queryable,
    session: { tenantId: string; userId: string; tokenSha256: string; seconds: number; ip: string | null; userAgent: string | null },
  ): Promise<{ id: string; expires_at: Date }> {
    const { rows } = await db.query<{ id: string; expires_at: Date }>(
      `INSERT INTO sessions (tenant_id, user_id, token_sha256, expires_at, ip, user_agent)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) RETURNING id, expires_at`,
      [session.tenantId, session.userId, session.tokenSha256, session.seconds, session.ip, session.userAgent?.slice(0, 512) ?? null],
    );
    return rows[0];
  }

  /** Revokes the session whose token has this SHA-256 (visible in the transaction's scope). */
  async revokeByToken(db: Queryable, tokenSha256: string): Promise<void> {
    await db.query('UPDATE sessions SET revoked_at = now() WHERE token_sha256 = $1 AND revoked_at IS NULL', [tokenSha256]);
  }

  /** Revokes every live session of `userId`, in every organization (the transaction's tierwise.user_id). */
  async revokeAllOfUser(db: Queryable, userId: string): Promise<number> {
    const { rowCount } = await db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
    return rowCount ?? 0;
  }
}
