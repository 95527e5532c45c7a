import { Endpoint } from '@tierwise/common';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { CurrentSession, SessionAuthenticated } from '../auth/session-authenticated.decorator.js';
import { InvitationDto, InvitationListDto, MemberListDto, SessionDto } from './account.dto.js';
import {
  type AcceptInvitationBody,
  acceptInvitationBodySchema,
  type InvitationBody,
  invitationBodySchema,
  type RoleBody,
  roleBodySchema,
  uuidParamSchema,
} from './account-bodies.js';
import { ApiErrors } from './error-responses.js';
import { InvitationsService } from './invitations.service.js';
import { MembersService } from './members.service.js';
import type { PortalSession } from '../identity/session.service.js';

/** Members and invitations of the caller's organization. */
@ApiTags('organization')
@Controller()
export class MembersController {
  constructor(
    private readonly members: MembersService,
    private readonly invitations: InvitationsService,
  ) {}

  @Get('v1/organization/members')
  @Authenticated({ permission: Permission.MemberRead })
  @Endpoint({ summary: 'Members of the organization with their roles', ok: MemberListDto })
  list(@Auth() auth: Principal): Promise<MemberListDto> {
    return this.members.list(auth);
  }

  @Patch('v1/organization/members/:userId')
  @HttpCode(204)
  @Authenticated({ permission: Permission.MemberWrite })
  @ApiOperation({ summary: "Change a member's role (only an owner touches the owner role; the last owner stays)" })
  @ApiNoContentResponse({ description: 'role changed' })
  @ApiErrors({ 400: 'malformed userId or role', 404: 'no such member in this organization', 409: 'it would leave the organization without an owner' })
  changeRole(
    @Auth() auth: Principal,
    @Origin() origin: RequestOrigin,
    @Param('userId', { schema: uuidParamSchema }) userId: string,
    @Body({ schema: roleBodySchema }) body: RoleBody,
  ): Promise<void> {
    return this.members.changeRole(auth, origin, userId, body.role);
  }

  @Delete('v1/organization/members/:userId')
  @HttpCode(204)
  @Authenticated({ permission: Permission.MemberWrite })
  @ApiOperation({ summary: 'Remove a member (their sessions in this organization end)' })
  @ApiNoContentResponse({ description: 'removed' })
  @ApiErrors({ 400: 'malformed userId', 404: 'no such member in this organization', 409: 'it would leave the organization without an owner' })
  remove(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Param('userId', { schema: uuidParamSchema }) userId: string): Promise<void> {
    return this.members.remove(auth, origin, userId);
  }

  @Delete('v1/organization/membership')
  @HttpCode(204)
  @SessionAuthenticated()
  @ApiOperation({ summary: 'Leave the organization of this session (the last owner cannot)' })
  @ApiNoContentResponse({ description: 'left; the session ended' })
  @ApiErrors({ 409: 'you are the last owner' })
  leave(@CurrentSession() session: PortalSession, @Origin() origin: RequestOrigin): Promise<void> {
    return this.members.remove(session.principal, origin, session.userId);
  }

  @Get('v1/organization/invitations')
  @Authenticated({ permission: Permission.MemberRead })
  @Endpoint({ summary: 'Pending invitations of the organization', ok: InvitationListDto })
  listInvitations(@Auth() auth: Principal): Promise<InvitationListDto> {
    return this.invitations.list(auth);
  }

  @Post('v1/organization/invitations')
  @Authenticated({ permission: Permission.MemberWrite })
  @Endpoint({ summary: 'Invite an e-mail address with a role (a link is mailed; it works once, for 7 days)', created: InvitationDto })
  @ApiErrors({ 400: 'malformed body', 409: 'already a member, or already invited' })
  invite(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Body({ schema: invitationBodySchema }) body: InvitationBody): Promise<InvitationDto> {
    return this.invitations.invite(auth, origin, body);
  }

  @Delete('v1/organization/invitations/:invitationId')
  @HttpCode(204)
  @Authenticated({ permission: Permission.MemberWrite })
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  @ApiNoContentResponse({ description: 'revoked' })
  @ApiErrors({ 400: 'malformed invitationId', 404: 'no such pending invitation in this organization' })
  revoke(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Param('invitationId', { schema: uuidParamSchema }) invitationId: string): Promise<void> {
    return this.invitations.revoke(auth, origin, invitationId);
  }

  @Post('v1/auth/invitations/accept')
  @HttpCode(200)
  @ApiTags('auth')
  @Endpoint({ summary: 'Accept an invitation: a new account gives display_name and password; an existing one must be logged in (with x-csrf-token)', ok: SessionDto })
  @ApiErrors({ 400: 'malformed body, or a new account without name or password', 401: 'the address has an account: log in as it first', 404: 'unknown, used, revoked or expired invitation', 409: 'already a member, or the address got an account meanwhile' })
  accept(@Body({ schema: acceptInvitationBodySchema }) body: AcceptInvitationBody, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionDto> {
    return this.invitations.accept(body, request, response);
  }
}
