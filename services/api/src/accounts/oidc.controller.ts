import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ACCOUNT_SETTINGS, type AccountSettings } from '../config/account-settings.js';
import { ApiErrors } from './error-responses.js';
import { OidcService } from './oidc.service.js';

/** OpenID Connect login: the browser goes to the provider and comes back to the callback. */
@ApiTags('auth')
@Controller('v1/auth/oidc')
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    @Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings,
  ) {}

  @Get('login')
  @ApiOperation({ summary: 'Start an OIDC login: redirects to the identity provider (authorization code + PKCE)' })
  @ApiFoundResponse({ description: 'redirect to the provider' })
  @ApiErrors({ 404: 'OIDC login is not configured', 503: 'the provider cannot be reached' })
  async login(@Res() response: Response): Promise<void> {
    response.redirect(302, await this.oidc.begin(response));
  }

  @Get('callback')
  @ApiOperation({ summary: "The provider's redirect back: logs in (session cookie) and redirects to the portal" })
  @ApiFoundResponse({ description: 'logged in: redirect to the portal' })
  @ApiErrors({ 400: 'no login in progress, or the provider refused', 403: 'no verified e-mail, or no organization', 404: 'OIDC login is not configured', 409: 'the address got an account meanwhile; retry', 503: 'the provider cannot be reached' })
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.oidc.complete(request, response);
    response.redirect(302, `${this.settings.portalUrl}/`);
  }
}
