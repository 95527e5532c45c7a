import { Global, Inject, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import cookieParser from 'cookie-parser';
import { AuditModule } from '../audit/audit.module.js';
import { CredentialGuard } from '../auth/credential.guard.js';
import { SessionGuard } from '../auth/session.guard.js';
import { AccountMail } from './account-mail.js';
import { AccountMailer } from './account-mailer.js';
import { ACCOUNT_SETTINGS, type AccountSettings, loadAccountSettings } from '../config/account-settings.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { AccountService } from './account.service.js';
import { AuthController } from './auth.controller.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationsService } from './invitations.service.js';
import { LoginThrottle } from './login-throttle.js';
import { LoginService } from './login.service.js';
import { MembersController } from './members.controller.js';
import { MembersService } from './members.service.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { OidcController } from './oidc.controller.js';
import { OidcService } from './oidc.service.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionCookies } from '../identity/session-cookies.js';
import { SessionDescriber } from './session-describer.js';
import { SessionService } from '../identity/session.service.js';
import { SessionsRepository } from '../identity/sessions.repository.js';
import { UsersRepository } from './users.repository.js';

/** The guards of portal sessions and of `@Authenticated` routes (API key or session; the API-key guard comes from AuthModule). */
const GUARDS = [SessionGuard, CredentialGuard];

/**
 * Portal accounts: users, organizations (tenants), memberships, sessions, invitations,
 * e-mail verification, password reset and OIDC login; and the guards of every route (global,
 * like AuthModule, so every feature module's `@Authenticated` routes find them).
 * Parses cookies (signed with the session secret) for the whole api.
 */
@Global()
@Module({
  imports: [AuditModule],
  controllers: [AuthController, OidcController, MembersController],
  providers: [
    { provide: ACCOUNT_SETTINGS, useFactory: () => loadAccountSettings() },
    AccountTransactions,
    UsersRepository,
    MembershipsRepository,
    SessionsRepository,
    InvitationsRepository,
    PasswordHasher,
    LoginThrottle,
    AccountMail,
    AccountMailer,
    SessionCookies,
    SessionService,
    SessionDescriber,
    AccountService,
    LoginService,
    OidcService,
    MembersService,
    InvitationsService,
    ...GUARDS,
  ],
  exports: [SessionService, SessionCookies, ...GUARDS],
})
export class AccountsModule implements NestModule {
  constructor(@Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser(this.settings.csrfSecret)).forRoutes('*');
  }
}
