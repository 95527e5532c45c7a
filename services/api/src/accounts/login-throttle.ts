import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode, sha256Hex } from '@tierwise/common';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';

/** Consecutive wrong passwords for one address from one client IP that lock them, and for how long (seconds). */
export const ACCOUNT_LOCK_THRESHOLD = 5;
export const ACCOUNT_LOCK_SECONDS = 15 * 60;
/** Failed logins and account e-mails per client IP within the window (seconds). */
export const IP_FAILURES = 20;
export const IP_MAILS = 10;
export const IP_WINDOW_SECONDS = 15 * 60;

/**
 * Brute-force protection of portal login (OWASP Authentication Cheat Sheet, "Protect Against
 * Automated Attacks"; rate-limiter-flexible's login-endpoint recipe, "consecutive fails by
 * username and IP"):
 * - per address and client IP: {@link ACCOUNT_LOCK_THRESHOLD} consecutive failed logins lock that
 *   pair for {@link ACCOUNT_LOCK_SECONDS}, whether the address has an account or not (one answer
 *   for both: no enumeration), and the owner signing in from another address is not locked out
 *   (issue 16, finding 9); a successful login clears the count. In PostgreSQL (login_failures,
 *   migration 835), keyed by a SHA-256 of the two, so every api process agrees;
 * - per client IP: {@link IP_FAILURES} failed logins within {@link IP_WINDOW_SECONDS} block the IP
 *   for the rest of the window; and e-mail-sending requests (sign-up, reset, resend) are limited
 *   to {@link IP_MAILS} per {@link IP_WINDOW_SECONDS}, in this process's memory.
 * Refusals are 429 `too_many_requests` with Retry-After (seconds).
 */
@Injectable()
export class LoginThrottle {
  private readonly failuresByIp = new RateLimiterMemory({ keyPrefix: 'login-ip', points: IP_FAILURES, duration: IP_WINDOW_SECONDS });
  private readonly mailsByIp = new RateLimiterMemory({ keyPrefix: 'mail-ip', points: IP_MAILS, duration: IP_WINDOW_SECONDS });
  private readonly failuresByAddress: RateLimiterPostgres;

  constructor(database: DatabaseService) {
    this.failuresByAddress = new RateLimiterPostgres({
      storeClient: database.pool,
      tableName: 'login_failures',
      tableCreated: true,
      keyPrefix: 'login',
      points: ACCOUNT_LOCK_THRESHOLD,
      duration: ACCOUNT_LOCK_SECONDS,
    });
  }

  /** @throws ApiError 429 when `ip` has used up its failed logins, or `email` from `ip` is locked. */
  async assertMayLogin(email: string, ip: string): Promise<void> {
    const byIp = await this.failuresByIp.get(ip);
    if (byIp && byIp.consumedPoints >= IP_FAILURES) {
      throw tooMany(`too many failed logins from this address`, byIp.msBeforeNext);
    }
    const byAddress = await this.failuresByAddress.get(addressKey(email, ip));
    if (byAddress && byAddress.consumedPoints >= ACCOUNT_LOCK_THRESHOLD) {
      throw tooMany(LOCKED, byAddress.msBeforeNext);
    }
  }

  /**
   * Counts a failed login of `email` from `ip`, the same whether the address has an account.
   * @throws ApiError 429 when this failure locked the pair.
   */
  async failed(email: string, ip: string): Promise<void> {
    await this.failuresByIp.consume(ip).catch(() => undefined);
    const state = await this.failuresByAddress.consume(addressKey(email, ip)).catch((rejected: RateLimiterRes | Error) => {
      throw rejected instanceof Error ? rejected : tooMany(LOCKED, rejected.msBeforeNext);
    });
    if (state.consumedPoints >= ACCOUNT_LOCK_THRESHOLD) {
      throw tooMany(LOCKED, state.msBeforeNext);
    }
  }

  /** A successful login of `email` from `ip`: its count starts again. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.failuresByAddress.delete(addressKey(email, ip));
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

const LOCKED = 'too many failed logins for this address from here: try again later';

/** The key of (address, IP): a SHA-256, so no address is stored. */
function addressKey(email: string, ip: string): string {
  return sha256Hex(`${email.toLowerCase()}\n${ip}`);
}
