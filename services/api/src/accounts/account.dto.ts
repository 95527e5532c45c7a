import { ApiProperty } from '@nestjs/swagger';

const ROLES = ['owner', 'admin', 'viewer'];

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() display_name!: string;
}

export class OrganizationDto {
  @ApiProperty({ format: 'uuid', description: 'the tenant id' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES, description: 'your role there' }) role!: string;
}

/** The logged-in session: who, in which organization, and the CSRF token for changes. */
export class SessionDto {
  @ApiProperty({ type: UserDto }) user!: UserDto;
  @ApiProperty({ type: OrganizationDto, description: 'the organization this session acts in' }) organization!: OrganizationDto;
  @ApiProperty({ type: [OrganizationDto], description: 'every organization you belong to' }) organizations!: OrganizationDto[];
  @ApiProperty({ description: 'send it as x-csrf-token with every POST/PUT/PATCH/DELETE of this session' }) csrf_token!: string;
  @ApiProperty({ format: 'date-time', description: 'absolute expiry of the session (idle expiry comes sooner without use)' }) expires_at!: string;
}

/** An answer that only says what happened (e-mails are sent whether or not the address is known). */
export class AcceptedDto {
  @ApiProperty({ example: 'if the address has an account, a mail is on its way' }) message!: string;
}

export class LoggedOutDto {
  @ApiProperty({ description: 'sessions ended' }) sessions_ended!: number;
}

export class MemberDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ format: 'date-time' }) joined_at!: string;
}

export class MemberListDto {
  @ApiProperty({ type: [MemberDto] }) members!: MemberDto[];
}

export class InvitationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: ROLES }) role!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'the user who invited' }) invited_by!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}

export class InvitationListDto {
  @ApiProperty({ type: [InvitationDto] }) invitations!: InvitationDto[];
}
