import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, type Queryable } from '@tierwise/common';
import { AuditService } from '../audit/audit.service.js';
import type { Principal, Role } from '../identity/principal.js';
import type { RequestOrigin } from '../http/request-origin.js';
import type { MemberListDto } from './account.dto.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';

/**
 * Members of the caller's organization. Rules: only an owner grants, changes or removes the
 * owner role; an organization always keeps one owner (the last owner can neither be demoted,
 * be removed nor leave). Owner rows are locked while the rule is checked, so two concurrent
 * requests cannot remove the last two owners. Every change is audited in its transaction.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly memberships: MembershipsRepository,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal): Promise<MemberListDto> {
    const rows = await this.transactions.run({ tenantId: principal.tenantId }, (db) => this.memberships.list(db));
    return {
      members: rows.map((r) => ({ user_id: r.user_id, email: r.email, display_name: r.display_name, role: r.role, joined_at: r.created_at.toISOString() })),
    };
  }

  /** @throws ApiError 404 not a member; 403 owner role without being owner; 409 last owner. */
  changeRole(principal: Principal, origin: RequestOrigin, userId: string, role: Role): Promise<void> {
    return this.transactions.run({ tenantId: principal.tenantId }, async (db) => {
      const current = await this.target(db, userId);
      if ((current === 'owner' || role === 'owner') && principal.role !== 'owner') {
        throw new ApiError(ErrorCode.Forbidden, 'only an owner can grant or take away the owner role');
      }
      if (current === 'owner' && role !== 'owner') {
        await this.assertAnotherOwner(db, userId);
      }
      await this.memberships.setRole(db, userId, role);
      await this.audit.record(db, principal, origin, { action: 'member.role_change', targetKind: 'user', targetId: userId, before: { role: current }, after: { role } });
    });
  }

  /** Removes a member (or, with the caller's own id, leaves). @throws as {@link changeRole}. */
  remove(principal: Principal, origin: RequestOrigin, userId: string): Promise<void> {
    return this.transactions.run({ tenantId: principal.tenantId }, async (db) => {
      const current = await this.target(db, userId);
      const leaving = principal.actor.kind === 'user' && principal.actor.id === userId;
      if (current === 'owner' && principal.role !== 'owner' && !leaving) {
        throw new ApiError(ErrorCode.Forbidden, 'only an owner can remove an owner');
      }
      if (current === 'owner') {
        await this.assertAnotherOwner(db, userId);
      }
      await this.memberships.delete(db, userId);
      await this.audit.record(db, principal, origin, { action: leaving ? 'member.leave' : 'member.remove', targetKind: 'user', targetId: userId, before: { role: current }, after: null });
    });
  }

  private async target(db: Queryable, userId: string): Promise<Role> {
    const role = await this.memberships.roleForUpdate(db, userId);
    if (!role) {
      throw new ApiError(ErrorCode.NotFound, `user ${userId} is not a member of this organization`);
    }
    return role;
  }

  private async assertAnotherOwner(db: Queryable, userId: string): Promise<void> {
    const owners = await this.memberships.lockOwners(db);
    if (!owners.some((owner) => owner !== userId)) {
      throw new ApiError(ErrorCode.Conflict, 'the organization would have no owner left: make another member owner first');
    }
  }
}
