import { Inject, Injectable } from '@nestjs/common';
import { doubleCsrf } from 'csrf-csrf';
import type { CookieOptions, Request, Response } from 'express';
import { ACCOUNT_SETTINGS, type AccountSettings } from '../config/account-settings.js';

/** Name of the session cookie: the session token (its SHA-256 is sessions.token_sha256). */
export const SESSION_COOKIE = 'tw_session';
/** Name of the CSRF cookie (csrf-csrf's token|HMAC pair, bound to the session id). */
export const CSRF_COOKIE = 'tw_csrf';
/** Header carrying the CSRF token on cookie-authenticated POST/PUT/PATCH/DELETE. */
export const CSRF_HEADER = 'x-csrf-token';

/** A request whose session id is known (set by the session guard or at login), for the CSRF binding. */
interface WithSessionId extends Request {
  tierwiseSessionId?: string;
}

/**
 * The cookies of a portal session: httpOnly, SameSite=Lax, Secure when the request came over
 * HTTPS or the api's public URL is https (OWASP Session Management Cheat Sheet, "Cookies"), and CSRF protection for
 * cookie-authenticated unsafe methods by csrf-csrf's signed double-submit cookie (OWASP CSRF
 * Prevention Cheat Sheet, "Signed Double-Submit Cookie"), bound to the session id.
 */
@Injectable()
export class SessionCookies {
  private readonly csrf;

  constructor(@Inject(ACCOUNT_SETTINGS) private readonly settings: AccountSettings) {
    this.csrf = doubleCsrf({
      getSecret: () => settings.csrfSecret,
      getSessionIdentifier: (request: Request) => (request as WithSessionId).tierwiseSessionId ?? '',
      cookieName: CSRF_COOKIE,
      cookieOptions: { sameSite: 'lax', path: '/', httpOnly: true, secure: false },
      getCsrfTokenFromRequest: (request: Request) => request.header(CSRF_HEADER),
    });
  }

  /** The session token of the request's cookie, or null. */
  token(request: Request): string | null {
    const value: unknown = request.cookies?.[SESSION_COOKIE];
    return typeof value === 'string' && value.length > 0 ? value : null;
  }

  /**
   * Sets the session cookie (expiring with the session's absolute expiry) and a fresh CSRF
   * cookie bound to `sessionId`.
   * @returns the CSRF token the client must echo in {@link CSRF_HEADER}.
   */
  issue(request: Request, response: Response, session: { id: string; token: string; expiresAt: Date }): string {
    response.cookie(SESSION_COOKIE, session.token, { ...this.options(request), expires: session.expiresAt });
    (request as WithSessionId).tierwiseSessionId = session.id;
    return this.csrf.generateCsrfToken(request, response, { overwrite: true, cookieOptions: this.options(request) });
  }

  /**
   * The CSRF token of the session `sessionId`: the one of the request's CSRF cookie while it
   * is valid for this session (so several tabs share it), else a new one (new cookie).
   */
  csrfToken(request: Request, response: Response, sessionId: string): string {
    (request as WithSessionId).tierwiseSessionId = sessionId;
    return this.csrf.generateCsrfToken(request, response, { overwrite: false, validateOnReuse: false, cookieOptions: this.options(request) });
  }

  /** Whether the request carries the CSRF token of the session `sessionId` (header and cookie agree, HMAC valid). */
  csrfValid(request: Request, sessionId: string): boolean {
    (request as WithSessionId).tierwiseSessionId = sessionId;
    return this.csrf.validateRequest(request);
  }

  /** Clears both cookies. */
  clear(request: Request, response: Response): void {
    response.clearCookie(SESSION_COOKIE, this.options(request));
    response.clearCookie(CSRF_COOKIE, this.options(request));
  }

  private options(request: Request): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: request.secure || this.settings.secureCookies, path: '/' };
  }
}
