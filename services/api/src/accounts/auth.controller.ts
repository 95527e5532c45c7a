import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiTags, ApiUnsupportedMediaTypeResponse } from '@nestjs/swagger';
import { Endpoint, ErrorBodyDto } from '@tierwise/common';
import type { Request, Response } from 'express';
import { CurrentSession, SessionAuthenticated } from '../auth/session-authenticated.decorator.js';
import { JsonBodyGuard } from '../http/json-body.guard.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import { AcceptedDto, LoggedOutDto, SessionDto } from './account.dto.js';
import {
  type EmailBody,
  emailBodySchema,
  type LoginBody,
  loginBodySchema,
  type PasswordResetBody,
  passwordResetBodySchema,
  type SignupBody,
  signupBodySchema,
  type SwitchOrganizationBody,
  switchOrganizationBodySchema,
  type TokenBody,
  tokenBodySchema,
} from './account-bodies.js';
import { AccountService } from './account.service.js';
import { ApiErrors } from './error-responses.js';
import { LoginService } from './login.service.js';
import { SessionDescriber } from './session-describer.js';
import { SessionCookies } from '../identity/session-cookies.js';
import { type PortalSession, SessionService } from '../identity/session.service.js';

const INVALID = 'malformed body (the message names the field)';
const THROTTLED = 'too many requests from this address or for this account; see Retry-After';

/** Portal accounts: sign-up, e-mail verification, password login and reset, the session. Bodies are JSON only (login CSRF). */
@ApiTags('auth')
@Controller('v1/auth')
@UseGuards(JsonBodyGuard)
@ApiUnsupportedMediaTypeResponse({ type: ErrorBodyDto, description: 'a body that is not application/json' })
export class AuthController {
  constructor(
    private readonly accounts: AccountService,
    private readonly logins: LoginService,
    private readonly sessions: SessionService,
    private readonly describer: SessionDescriber,
    private readonly cookies: SessionCookies,
  ) {}

  @Post('signup')
  @HttpCode(202)
  @ApiOperation({ summary: 'Create an account and its organization (you become owner); a verification link is mailed' })
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrors({ 400: INVALID, 429: THROTTLED })
  signup(@Body({ schema: signupBodySchema }) body: SignupBody, @Origin() origin: RequestOrigin): Promise<AcceptedDto> {
    return this.accounts.signup(body, origin);
  }

  @Post('verify-email')
  @HttpCode(200)
  @Endpoint({ summary: 'Confirm an e-mail address with the token of the mailed link', ok: AcceptedDto })
  @ApiErrors({ 400: 'malformed body, or a token that is unknown, used or expired' })
  verifyEmail(@Body({ schema: tokenBodySchema }) body: TokenBody): Promise<AcceptedDto> {
    return this.accounts.verifyEmail(body);
  }

  @Post('verify-email/resend')
  @HttpCode(202)
  @ApiOperation({ summary: 'Mail a new verification link (same answer whether or not the address has an account)' })
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrors({ 400: INVALID, 429: THROTTLED })
  resendVerification(@Body({ schema: emailBodySchema }) body: EmailBody, @Req() request: Request): Promise<AcceptedDto> {
    return this.accounts.resendVerification(body, request.ip ?? 'unknown');
  }

  @Post('password-reset')
  @HttpCode(202)
  @ApiOperation({ summary: 'Mail a password reset link (same answer whether or not the address has an account)' })
  @ApiAcceptedResponse({ type: AcceptedDto })
  @ApiErrors({ 400: INVALID, 429: THROTTLED })
  requestPasswordReset(@Body({ schema: emailBodySchema }) body: EmailBody, @Req() request: Request): Promise<AcceptedDto> {
    return this.accounts.requestPasswordReset(body, request.ip ?? 'unknown');
  }

  @Post('password-reset/confirm')
  @HttpCode(200)
  @Endpoint({ summary: 'Set a new password with the token of the mailed link; logs out every session', ok: AcceptedDto })
  @ApiErrors({ 400: 'malformed body or password, or a token that is unknown, used or expired' })
  resetPassword(@Body({ schema: passwordResetBodySchema }) body: PasswordResetBody): Promise<AcceptedDto> {
    return this.accounts.resetPassword(body);
  }

  @Post('login')
  @HttpCode(200)
  @Endpoint({ summary: 'Log in with e-mail and password: sets the session cookie (a new one at every login)', ok: SessionDto })
  @ApiErrors({ 400: INVALID, 401: 'e-mail address or password is wrong', 403: 'e-mail not verified, or not a member of the organization', 429: THROTTLED })
  login(@Body({ schema: loginBodySchema }) body: LoginBody, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionDto> {
    return this.logins.login(body, request, response);
  }

  @Get('session')
  @SessionAuthenticated()
  @Endpoint({ summary: 'The logged-in user, organization and a fresh CSRF token', ok: SessionDto })
  current(@CurrentSession() session: PortalSession, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<SessionDto> {
    const csrfToken = this.cookies.csrfToken(request, response, session.id);
    return this.describer.describe(session.userId, session.tenantId, { expiresAt: session.expiresAt, csrfToken });
  }

  @Post('organization')
  @HttpCode(200)
  @SessionAuthenticated()
  @Endpoint({ summary: 'Switch the session to another of your organizations (a new session cookie)', ok: SessionDto })
  @ApiErrors({ 400: INVALID, 404: 'you are not a member of that organization' })
  async switchOrganization(
    @CurrentSession() session: PortalSession,
    @Body({ schema: switchOrganizationBodySchema }) body: SwitchOrganizationBody,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionDto> {
    const started = await this.sessions.switchOrganization(request, response, session, body.organization_id);
    return this.describer.describe(session.userId, body.organization_id, started);
  }

  @Post('logout')
  @HttpCode(200)
  @SessionAuthenticated()
  @Endpoint({ summary: 'Log out this session', ok: LoggedOutDto })
  async logout(@CurrentSession() session: PortalSession, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<LoggedOutDto> {
    await this.sessions.end(request, response, session);
    return { sessions_ended: 1 };
  }

  @Post('logout-everywhere')
  @HttpCode(200)
  @SessionAuthenticated()
  @Endpoint({ summary: 'Log out every session of your account, in every organization and browser', ok: LoggedOutDto })
  async logoutEverywhere(@CurrentSession() session: PortalSession, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<LoggedOutDto> {
    const ended = await this.sessions.endEverywhere(session.userId);
    this.cookies.clear(request, response);
    return { sessions_ended: ended };
  }
}
