import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { Role } from './principal.js';

/** An organization the user belongs to, with the user's role there. */
export interface OrganizationRow {
  tenant_id: string;
  name: string;
  role: Role;
}

/** A member of the scoped organization. */
export interface MemberRow {
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: Date;
}

/** SQL of organizations (tenants) and memberships. */
@Injectable()
export class MembershipsRepository {
  /** Creates an organization (the transaction's tierwise.tenant_id must be `id`). */
  async insertOrganization(db: Queryable, id: string, name: string): Promise<void> {
    await db.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [id, name]);
  }

  /** Gives `userId` `role` in the scoped organization `tenantId`. */
  async insert(db: Queryable, tenantId: string, userId: string, role: Role): Promise<void> {
    await db.query('INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, $3)', [tenantId, userId, role]);
  }

  /** The organizations of the scoped user (tierwise.user_id), oldest membership first. */
  async organizationsOf(db: Queryable, userId: string): Promise<OrganizationRow[]> {
    const { rows } = await db.query<OrganizationRow>(
      `SELECT m.tenant_id, t.name, m.role FROM memberships m JOIN tenants t ON t.id = m.tenant_id
        WHERE m.user_id = $1 ORDER BY m.created_at, m.tenant_id`,
      [userId],
    );
    return rows;
  }

  /** The members of the scoped organization, by e-mail. */
  async list(db: Queryable): Promise<MemberRow[]> {
    const { rows } = await db.query<MemberRow>(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.created_at
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.tenant_id = current_tenant_id() ORDER BY u.email`,
    );
    return rows;
  }

  /** The role of `userId` in the scoped organization, locking the membership row; null when not a member. */
  async roleForUpdate(db: Queryable, userId: string): Promise<Role | null> {
    const { rows } = await db.query<{ role: Role }>(
      'SELECT role FROM memberships WHERE tenant_id = current_tenant_id() AND user_id = $1 FOR UPDATE',
      [userId],
    );
    return rows[0]?.role ?? null;
  }

  /** Owners of the scoped organization, their rows locked (so two owners cannot both leave at once). */
  async lockOwners(db: Queryable): Promise<string[]> {
    const { rows } = await db.query<{ user_id: string }>(
      `SELECT user_id FROM memberships WHERE tenant_id = current_tenant_id() AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    );
    return rows.map((row) => row.user_id);
  }

  async setRole(db: Queryable, userId: string, role: Role): Promise<void> {
    await db.query('UPDATE memberships SET role = $2 WHERE tenant_id = current_tenant_id() AND user_id = $1', [userId, role]);
  }

  /** Removes the membership; its sessions go with it (foreign key cascade). */
  async delete(db: Queryable, userId: string): Promise<void> {
    await db.query('DELETE FROM memberships WHERE tenant_id = current_tenant_id() AND user_id = $1', [userId]);
  }
}
