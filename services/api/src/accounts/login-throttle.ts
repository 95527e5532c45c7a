import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

/** Consecutive wrong passwords that lock an account, and for how long (seconds). */
export const ACCOUNT_LOCK_THRESHOLD = 5;
export const ACCOUNT_LOCK_SECONDS = 15 * 60;
/** Failed logins and account e-mails per client IP within the window (seconds). */
export const IP_FAILURES = 20;
export const IP_MAILS = 10;
export const IP_WINDOW_SECONDS = 15 * 60;

/**
 * Brute-force protection of portal login (OWASP Authentication Cheat Sheet, "Protect Against
 * Automated Attacks"; rate-limiter-flexible's login-endpoint recipe):
 * - per account: {@link ACCOUNT_LOCK_THRESHOLD} consecutive failed passwords lock it for
 *   {@link ACCOUNT_LOCK_SECONDS} (stored in users.locked_until, so every api process agrees);
 * - per client IP: {@link IP_FAILURES} failed logins within {@link IP_WINDOW_SECONDS} block the IP
 *   for the rest of the window; and e-mail-sending requests (sign-up, reset, resend) are limited
 *   to {@link IP_MAILS} per {@link IP_WINDOW_SECONDS}, in this process's memory.
 * Refusals are 429 `too_many_requests` with Retry-After (seconds).
 */
@Injectable()
export class LoginThrottle {
  private readonly failuresByIp = new RateLimiterMemory({ keyPrefix: 'login-ip', points: IP_FAILURES, duration: IP_WINDOW_SECONDS });
  private readonly mailsByIp = new RateLimiterMemory({ keyPrefix: 'mail-ip', points: IP_MAILS, duration: IP_WINDOW_SECONDS });

  /** @throws ApiError 429 when `ip` has used up its failed logins. */
  async assertIpMayLogin(ip: string): Promise<void> {
    const state = await this.failuresByIp.get(ip);
    if (state && state.consumedPoints >= IP_FAILURES) {
      throw tooMany(`too many failed logins from this address`, state.msBeforeNext);
    }
  }

  /** Counts a failed login of `ip`. */
  async failedFrom(ip: string): Promise<void> {
    await this.failuresByIp.consume(ip).catch(() => undefined);
  }

  /** @throws ApiError 429 when the account is locked until `lockedUntil`. */
  assertAccountUnlocked(lockedUntil: Date | null, now = Date.now()): void {
    if (lockedUntil && lockedUntil.getTime() > now) {
      throw tooMany('too many failed logins for this account: it is locked for a while', lockedUntil.getTime() - now);
    }
  }

  /** Counts an e-mail-sending request of `ip`. @throws ApiError 429 past {@link IP_MAILS} in the window. */
  async mailFrom(ip: string): Promise<void> {
    await this.mailsByIp.consume(ip).catch((state: RateLimiterRes | Error) => {
      throw state instanceof Error ? state : tooMany('too many account e-mails requested from this address', state.msBeforeNext);
    });
  }
}

function tooMany(reason: string, msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(ErrorCode.TooManyRequests, `${reason}; retry in ${seconds} s`, { retryAfterSeconds: seconds });
}
