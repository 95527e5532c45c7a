/**
 * A browser of the portal for the HTTP suites: keeps cookies (fetch-cookie, tough-cookie) and
 * sends the session's CSRF token on unsafe methods, like the portal's client code does.
 */
import makeFetchCookie from 'fetch-cookie';
import type { Queryable } from '@tierwise/common';
import argon2 from 'argon2';
import { randomUUID } from 'node:crypto';
import { ARGON2ID_OPTIONS } from '../../src/accounts/password-hasher.js';

/** What a request answered: status, headers and the body (parsed when JSON, else text; null when empty). */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export class PortalBrowser {
  private readonly fetch = makeFetchCookie(fetch);
  /** The CSRF token of the current session (from login / GET /v1/auth/session). */
  csrfToken: string | null = null;

  constructor(private readonly baseUrl: string) {}

  /**
   * Sends a request with the browser's cookies (and `options.headers`); JSON body when given;
   * remembers `csrf_token` of a session answer.
   */
  async call<T = any>(method: string, path: string, body?: unknown, options: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    if ((options.csrf ?? true) && this.csrfToken && !['GET', 'HEAD'].includes(method)) {
      headers['x-csrf-token'] = this.csrfToken;
    }
    const response = await this.fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json');
    const parsed = text && json ? JSON.parse(text) : text || null;
    if (parsed && typeof parsed === 'object' && typeof parsed.csrf_token === 'string') {
      this.csrfToken = parsed.csrf_token;
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /** The value of a cookie the browser holds for the api, or undefined. */
  async cookie(name: string): Promise<string | undefined> {
    const all = await this.fetch.cookieJar.getCookieString(this.baseUrl);
    return all.split('; ').find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
  }

  /** Sets a cookie by hand (e.g. an old session token, to replay it). */
  async setCookie(name: string, value: string): Promise<void> {
    await this.fetch.cookieJar.setCookie(`${name}=${value}; Path=/`, this.baseUrl, { ignoreError: false });
  }

  /** POST /v1/auth/login; throws unless it answers 200. */
  async login(email: string, password: string): Promise<Answer> {
    const answer = await this.call('POST', '/v1/auth/login', { email, password });
    if (answer.status !== 200) {
      throw new Error(`login of ${email} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer;
  }
}

/** A user created directly in the database (as tierwise_owner), verified, member of `tenantId`. */
export interface SeededUser {
  id: string;
  email: string;
  password: string;
  displayName: string;
}

let cachedHash: Promise<string> | null = null;
/** The password every seeded user has (hashed once per suite: argon2id takes ~0.1-0.2 s). */
export const SEEDED_PASSWORD = 'correct horse battery staple';

/**
 * Inserts a verified user with {@link SEEDED_PASSWORD} and a membership of `tenantId`.
 * @param owner a tierwise_owner pool (bypasses RLS).
 */
export async function seedUser(owner: Queryable, tenantId: string, role: 'owner' | 'admin' | 'viewer', label: string): Promise<SeededUser> {
  cachedHash ??= argon2.hash(SEEDED_PASSWORD, ARGON2ID_OPTIONS);
  const user = { id: randomUUID(), email: `${label}-${randomUUID().slice(0, 8)}@example.test`, password: SEEDED_PASSWORD, displayName: `${label} ${randomUUID().slice(0, 6)}` };
  await owner.query('INSERT INTO users (id, email, display_name, password_hash, email_verified_at) VALUES ($1, $2, $3, $4, now())', [user.id, user.email, user.displayName, await cachedHash]);
  await owner.query('INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, $3)', [tenantId, user.id, role]);
  return user;
}

/** Deletes users created by a suite (their memberships and sessions go with them). */
export async function deleteUsers(owner: Queryable, emails: string[]): Promise<void> {
  await owner.query('DELETE FROM users WHERE email = ANY($1)', [emails]);
}

/** The account e-mails (outbox kind 'account.email') sent to `to`, oldest first. */
export async function mailsTo(owner: Queryable, to: string): Promise<{ tenant_id: string; payload: { to: string; subject: string; text: string; html: string } }[]> {
  const { rows } = await owner.query(`SELECT tenant_id, payload FROM outbox WHERE event_kind = 'account.email' AND payload->>'to' = $1 ORDER BY id`, [to]);
  return rows;
}

/** The token of the portal link in a mail's text (…?token=<token>). */
export function linkToken(text: string): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) {
    throw new Error(`no token link in mail: ${text}`);
  }
  return match[1];
}
