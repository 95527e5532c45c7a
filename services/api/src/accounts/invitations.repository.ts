import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { Role } from '../identity/principal.js';
import { AccountTransactions } from '../identity/account-transaction.js';

/** A pending invitation of the scoped organization. */
export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

/** A pending invitation found by its token (find_invitation), before the tenant is known. */
export interface InvitationTokenRow {
  invitation_id: string;
  tenant_id: string;
  email: string;
  role: Role;
}

/** SQL of invitations (tokens stored as SHA-256 hex only). */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly transactions: AccountTransactions) {}

  /** The pending (not accepted, revoked or expired) invitation of a token, or null. */
  async findByToken(tokenSha256: string): Promise<InvitationTokenRow | null> {
    const rows = await this.transactions.lookup<InvitationTokenRow>('SELECT * FROM find_invitation($1)', [tokenSha256]);
    return rows[0] ?? null;
  }

  /** Creates an invitation in the scoped organization, valid `seconds`. */
  async insert(db: Queryable, invitation: { tenantId: string; email: string; role: Role; tokenSha256: string; invitedBy: string | null; seconds: number }): Promise<InvitationRow> {
    const { rows } = await db.query<InvitationRow>(
      `INSERT INTO invitations (tenant_id, email, role, token_sha256, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
       RETURNING id, email, role, invited_by, created_at, expires_at`,
      [invitation.tenantId, invitation.email, invitation.role, invitation.tokenSha256, invitation.invitedBy, invitation.seconds],
    );
    return rows[0];
  }

  /** Pending invitations of the scoped organization, newest first. */
  async listPending(db: Queryable): Promise<InvitationRow[]> {
    const { rows } = await db.query<InvitationRow>(
      `SELECT id, email, role, invited_by, created_at, expires_at FROM invitations
        WHERE tenant_id = current_tenant_id() AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at DESC, id`,
    );
    return rows;
  }

  /** Whether `email` has a pending invitation in the scoped organization. */
  async pendingFor(db: Queryable, email: string): Promise<boolean> {
    const { rows } = await db.query(
      `SELECT 1 FROM invitations WHERE tenant_id = current_tenant_id() AND email = $1
          AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
      [email],
    );
    return rows.length > 0;
  }

  /** Revokes a pending invitation of the scoped organization; false when there is none with that id. */
  async revoke(db: Queryable, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `UPDATE invitations SET revoked_at = now()
        WHERE tenant_id = current_tenant_id() AND id = $1 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [id],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Marks an invitation accepted, once; false when it was accepted or revoked meanwhile. */
  async markAccepted(db: Queryable, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      'UPDATE invitations SET accepted_at = now() WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL',
      [id],
    );
    return (rowCount ?? 0) > 0;
  }
}
