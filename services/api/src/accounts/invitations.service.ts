import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, generateCredential, type Queryable, sha256Hex } from '@tierwise/common';
import type { Request, Response } from 'express';
import { AuditService } from '../audit/audit.service.js';
import type { Principal } from '../identity/principal.js';
import { type RequestOrigin, requestOrigin } from '../http/request-origin.js';
import type { InvitationDto, InvitationListDto, SessionDto } from './account.dto.js';
import type { AcceptInvitationBody, InvitationBody } from './account-bodies.js';
import { AccountMail } from './account-mail.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { SessionCookies } from '../identity/session-cookies.js';
import { type InvitationRow, InvitationsRepository } from './invitations.repository.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionDescriber } from './session-describer.js';
import { SessionService } from '../identity/session.service.js';
import { UsersRepository } from './users.repository.js';

/** Hours an invitation can be accepted. */
export const INVITATION_HOURS = 7 * 24;

/**
 * Invitations by e-mail: an admin or owner invites an address with a role; the link's token
 * (stored as SHA-256) is accepted once, before expiry, by that address: a new user sets a
 * name and password (the mail proved the address), an existing user accepts while logged in.
 * Accepting creates the membership and logs in to the organization. Every change is audited
 * in its transaction.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly invitations: InvitationsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly mail: AccountMail,
    private readonly sessions: SessionService,
    private readonly cookies: SessionCookies,
    private readonly describer: SessionDescriber,
    private readonly audit: AuditService,
  ) {}

  /** @throws ApiError 403 owner invitation by a non-owner; 409 already a member or invited. */
  invite(principal: Principal, origin: RequestOrigin, body: InvitationBody): Promise<InvitationDto> {
    if (body.role === 'owner' && principal.role !== 'owner') {
      throw new ApiError(ErrorCode.Forbidden, 'only an owner can invite an owner');
    }
    return this.transactions.run({ tenantId: principal.tenantId }, async (db) => {
      if ((await this.memberships.list(db)).some((m) => m.email === body.email)) {
        throw new ApiError(ErrorCode.Conflict, `${body.email} is already a member`);
      }
      if (await this.invitations.pendingFor(db, body.email)) {
        throw new ApiError(ErrorCode.Conflict, `${body.email} already has a pending invitation; revoke it to send a new one`);
      }
      const token = generateCredential('');
      const invitedBy = principal.actor.kind === 'user' ? principal.actor.id : null;
      const row = await this.invitations.insert(db, {
        tenantId: principal.tenantId,
        email: body.email,
        role: body.role,
        tokenSha256: sha256Hex(token),
        invitedBy,
        seconds: INVITATION_HOURS * 3600,
      });
      const inviter = invitedBy ? (await this.users.get(db, invitedBy))?.display_name : undefined;
      const { rows } = await db.query<{ name: string }>('SELECT name FROM tenants WHERE id = $1', [principal.tenantId]);
      await this.mail.send(db, principal.tenantId, body.email, {
        kind: 'invitation',
        token,
        hours: INVITATION_HOURS,
        organization: rows[0].name,
        role: body.role,
        invitedBy: inviter ?? 'An administrator',
      });
      await this.audit.record(db, principal, origin, { action: 'invitation.create', targetKind: 'invitation', targetId: row.id, before: null, after: { email: row.email, role: row.role } });
      return invitationDto(row);
    });
  }

  async list(principal: Principal): Promise<InvitationListDto> {
    const rows = await this.transactions.run({ tenantId: principal.tenantId }, (db) => this.invitations.listPending(db));
    return { invitations: rows.map(invitationDto) };
  }

  /** @throws ApiError 404 when the organization has no pending invitation with that id. */
  async revoke(principal: Principal, origin: RequestOrigin, id: string): Promise<void> {
    await this.transactions.run({ tenantId: principal.tenantId }, async (db) => {
      if (!(await this.invitations.revoke(db, id))) {
        throw new ApiError(ErrorCode.NotFound, `no pending invitation ${id}`);
      }
      await this.audit.record(db, principal, origin, { action: 'invitation.revoke', targetKind: 'invitation', targetId: id, before: { status: 'pending' }, after: { status: 'revoked' } });
    });
  }

  /**
   * Accepts an invitation and logs in to its organization.
   * @throws ApiError 404 unknown, used, revoked or expired token; 401 the address has an account
   *   and the request is not logged in as it (or lacks the CSRF token); 400 a new account without
   *   name or password; 409 already a member.
   */
  async accept(body: AcceptInvitationBody, request: Request, response: Response): Promise<SessionDto> {
    const invitation = await this.invitations.findByToken(sha256Hex(body.token));
    if (!invitation) {
      throw new ApiError(ErrorCode.NotFound, 'the invitation is unknown, already accepted, revoked or expired');
    }
    const existing = await this.users.findLogin(invitation.email);
    let userId: string;
    if (existing) {
      const session = await this.sessions.find(request);
      if (!session || session.userId !== existing.user_id || !this.cookies.csrfValid(request, session.id)) {
        throw new ApiError(ErrorCode.Unauthorized, `log in as ${invitation.email} (with its CSRF token) to accept this invitation`);
      }
      userId = existing.user_id;
    } else if (!body.display_name || !body.password) {
      throw new ApiError(ErrorCode.BadRequest, 'a new account needs display_name and password');
    } else {
      userId = randomUUID();
    }
    const passwordHash = existing ? null : await this.hasher.hash(body.password as string);
    await this.transactions.run({ tenantId: invitation.tenant_id, userId }, async (db: Queryable) => {
      if (!existing) {
        await this.users.insert(db, { id: userId, email: invitation.email, displayName: body.display_name as string, passwordHash, verified: true });
      }
      if (!(await this.invitations.markAccepted(db, invitation.invitation_id))) {
        throw new ApiError(ErrorCode.NotFound, 'the invitation was accepted or revoked meanwhile');
      }
      if (await this.memberships.roleForUpdate(db, userId)) {
        throw new ApiError(ErrorCode.Conflict, 'you are already a member of this organization');
      }
      await this.memberships.insert(db, invitation.tenant_id, userId, invitation.role);
      const member: Principal = { tenantId: invitation.tenant_id, actor: { kind: 'user', id: userId }, role: invitation.role, scope: 'read-write' };
      await this.audit.record(db, member, requestOrigin(request), {
        action: 'invitation.accept',
        targetKind: 'invitation',
        targetId: invitation.invitation_id,
        before: { status: 'pending' },
        after: { status: 'accepted', user_id: userId, role: invitation.role },
      });
    });
    const session = await this.sessions.start(request, response, { tenantId: invitation.tenant_id, userId });
    return this.describer.describe(userId, invitation.tenant_id, session);
  }
}

function invitationDto(row: InvitationRow): InvitationDto {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invited_by,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}
