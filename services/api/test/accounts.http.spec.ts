/**
 * Portal accounts over HTTP against the real api and PostgreSQL: sign-up, verification mail,
 * login, session cookies (attributes, hashing, rotation, idle and absolute expiry), CSRF,
 * log out everywhere, password reset, and login throttling (per account and per IP).
 */
import { createHash } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';
import { deleteUsers, linkToken, mailsTo, PortalBrowser } from './support/portal-browser.js';

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

describe('portal accounts (real api, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  const owner = tenants.owner;
  let app: NestExpressApplication;
  let url: string;
  const email = `founder-${Date.now()}@example.test`;
  const password = 'a long enough passphrase';
  let tenantId: string;

  beforeAll(async () => {
    process.env.TIERWISE_TRUST_PROXY = 'loopback'; // the tests play the load balancer (X-Forwarded-*)
    ({ app, url } = await startApi());
  });

  afterAll(async () => {
    delete process.env.TIERWISE_TRUST_PROXY;
    await app.close();
    await deleteUsers(owner, [email]);
    await tenants.cleanUp();
  });

  it('signs up: a user, an organization it owns, and a verification mail in the outbox; no login before verifying', async () => {
    const browser = new PortalBrowser(url);
    const signup = await browser.call('POST', '/v1/auth/signup', { email: email.toUpperCase(), password, display_name: 'Ada Founder', organization_name: 'Founder Storage' });
    expect(signup.status).toBe(202);

    const { rows } = await owner.query(
      `SELECT u.password_hash, u.email_verified_at, m.role, t.name, t.id FROM users u JOIN memberships m ON m.user_id = u.id JOIN tenants t ON t.id = m.tenant_id WHERE u.email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    tenantId = rows[0].id;
    tenants.track(tenantId);
    expect(rows[0]).toMatchObject({ role: 'owner', name: 'Founder Storage', email_verified_at: null });
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    const audit = await owner.query('SELECT actor_kind, action, after FROM audit_log WHERE tenant_id = $1', [tenantId]);
    expect(audit.rows).toEqual([{ actor_kind: 'user', action: 'organization.create', after: { name: 'Founder Storage' } }]);

    const mails = await mailsTo(owner, email);
    expect(mails).toHaveLength(1);
    expect(mails[0].tenant_id).toBe(tenantId);
    expect(mails[0].payload.subject).toMatch(/confirm/i);
    expect(mails[0].payload.html).toContain('/verify-email?token=');

    const early = await browser.call('POST', '/v1/auth/login', { email, password });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ code: 'forbidden', request_id: expect.any(String) });

    const again = await browser.call('POST', '/v1/auth/signup', { email, password: 'another password!', display_name: 'Mallory', organization_name: 'Takeover' });
    expect(again.status).toBe(202);
    expect((await mailsTo(owner, email)).map((m) => m.payload.subject)).toEqual([mails[0].payload.subject, 'Your Tierwise account']);
    expect((await owner.query('SELECT count(*)::int AS n FROM users WHERE email = $1', [email])).rows[0].n).toBe(1);

    const verified = await browser.call('POST', '/v1/auth/verify-email', { token: linkToken(mails[0].payload.text) });
    expect(verified.status).toBe(200);
    const reused = await browser.call('POST', '/v1/auth/verify-email', { token: linkToken(mails[0].payload.text) });
    expect(reused.status).toBe(400);
  });

  it('logs in with an httpOnly SameSite=Lax cookie whose token is stored only as its SHA-256, and serves the tenant API to it', async () => {
    const browser = new PortalBrowser(url);
    const login = await browser.call('POST', '/v1/auth/login', { email, password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email, display_name: 'Ada Founder' }, organization: { id: tenantId, name: 'Founder Storage', role: 'owner' } });
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('tw_session='));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/); // plain HTTP on loopback; Secure when the request came over HTTPS
    const token = (await browser.cookie('tw_session')) as string;
    const stored = await owner.query('SELECT token_sha256 FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)', [email]);
    expect(stored.rows.map((r) => r.token_sha256)).toContain(sha256(token));
    expect(JSON.stringify(stored.rows)).not.toContain(token);

    const fleet = await browser.call('GET', '/v1/fleet/summary');
    expect(fleet.status).toBe(200);
    const members = await browser.call('GET', '/v1/organization/members');
    expect(members.body.members).toEqual([expect.objectContaining({ email, role: 'owner' })]);
  });

  it('refuses a login (or any account form) posted from another site: bodies are JSON only, so no session cookie is set (login CSRF)', async () => {
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', new URLSearchParams({ email, password }).toString()],
      ['text/plain', JSON.stringify({ email, password })],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="email"\r\n\r\n${email}\r\n--x--\r\n`],
    ]) {
      const response = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': type, origin: 'http://evil.example' }, body });
      expect({ type, status: response.status, cookie: response.headers.getSetCookie().length }).toEqual({ type, status: 415, cookie: 0 });
      expect(await response.json()).toMatchObject({ code: 'unsupported_media_type' });
    }
    const signup = await fetch(`${url}/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.example' });
    expect(signup.status).toBe(415);
  });

  it('marks the session cookies Secure when the request came over HTTPS (X-Forwarded-Proto of a trusted proxy)', async () => {
    const browser = new PortalBrowser(url);
    const login = await browser.call('POST', '/v1/auth/login', { email, password }, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' } });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie();
    expect(cookies.filter((c) => /^tw_(session|csrf)=/.test(c))).toEqual([expect.stringMatching(/; Secure/), expect.stringMatching(/; Secure/)]);
  });
  it('refuses a cookie-authenticated change without the CSRF token of the session', async () => {
    const browser = new PortalBrowser(url);
    await browser.login(email, password);
    const invite = { email: `csrf-${Date.now()}@example.test`, role: 'viewer' };
    const without = await browser.call('POST', '/v1/organization/invitations', invite, { csrf: false });
    expect(without.status).toBe(403);
    expect(without.body.message).toMatch(/CSRF/);
    const other = new PortalBrowser(url);
    await other.login(email, password);
    const foreignToken = other.csrfToken;
    browser.csrfToken = foreignToken; // a token of another session does not fit this one
    expect((await browser.call('POST', '/v1/organization/invitations', invite)).status).toBe(403);
    const loginToken = (await browser.call('GET', '/v1/auth/session')).body.csrf_token; // this session's token again
    expect((await browser.call('GET', '/v1/auth/session')).body.csrf_token).toBe(loginToken); // stable: tabs share it
    const withToken = await browser.call('POST', '/v1/organization/invitations', invite);
    expect(withToken.status).toBe(201);
  });

  it('rotates the session at login: the cookie presented before logging in stops working', async () => {
    const browser = new PortalBrowser(url);
    await browser.login(email, password);
    const before = (await browser.cookie('tw_session')) as string;
    await browser.login(email, password);
    const after = (await browser.cookie('tw_session')) as string;
    expect(after).not.toBe(before);
    const replay = new PortalBrowser(url);
    await replay.setCookie('tw_session', before);
    expect((await replay.call('GET', '/v1/auth/session')).status).toBe(401);
    expect((await browser.call('GET', '/v1/auth/session')).status).toBe(200);
  });

  it('ends a session after its idle timeout and after its absolute lifetime', async () => {
    const idle = new PortalBrowser(url);
    await idle.login(email, password);
    const absolute = new PortalBrowser(url);
    await absolute.login(email, password);
    const idleToken = sha256((await idle.cookie('tw_session')) as string);
    const absoluteToken = sha256((await absolute.cookie('tw_session')) as string);
    await owner.query(`UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE token_sha256 = $1`, [idleToken]);
    await owner.query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_sha256 = $1`, [absoluteToken]);
    expect((await idle.call('GET', '/v1/fleet/summary')).status).toBe(401);
    expect((await absolute.call('GET', '/v1/fleet/summary')).status).toBe(401);
  });

  it('logs out one session, then every session of the account everywhere', async () => {
    const [first, second, third] = [new PortalBrowser(url), new PortalBrowser(url), new PortalBrowser(url)];
    for (const browser of [first, second, third]) {
      await browser.login(email, password);
    }
    expect((await first.call('POST', '/v1/auth/logout')).status).toBe(200);
    expect((await first.call('GET', '/v1/auth/session')).status).toBe(401);
    expect((await second.call('GET', '/v1/auth/session')).status).toBe(200);
    const everywhere = await second.call('POST', '/v1/auth/logout-everywhere');
    expect(everywhere.status).toBe(200);
    expect(everywhere.body.sessions_ended).toBeGreaterThanOrEqual(2);
    expect((await second.call('GET', '/v1/auth/session')).status).toBe(401);
    expect((await third.call('GET', '/v1/fleet/summary')).status).toBe(401);
  });

  it('resets a forgotten password by a mailed single-use link, logging out every session', async () => {
    const browser = new PortalBrowser(url);
    await browser.login(email, password);
    const unknown = await browser.call('POST', '/v1/auth/password-reset', { email: 'nobody-here@example.test' });
    const known = await browser.call('POST', '/v1/auth/password-reset', { email });
    expect([unknown.status, known.status]).toEqual([202, 202]);
    expect(unknown.body).toEqual(known.body);
    const older = linkToken((await mailsTo(owner, email)).at(-1)!.payload.text);
    expect((await browser.call('POST', '/v1/auth/password-reset', { email })).status).toBe(202);
    const mail = (await mailsTo(owner, email)).at(-1)!;
    expect(mail.payload.subject).toMatch(/reset/i);
    const token = linkToken(mail.payload.text);
    expect(token).not.toBe(older);
    const weak = await browser.call('POST', '/v1/auth/password-reset/confirm', { token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ code: 'bad_request', message: expect.stringMatching(/password/) });
    const newPassword = 'an even longer passphrase';
    expect((await browser.call('POST', '/v1/auth/password-reset/confirm', { token, password: newPassword })).status).toBe(200);
    expect((await browser.call('POST', '/v1/auth/password-reset/confirm', { token, password: 'yet another passphrase' })).status).toBe(400);
    // The older link was spent with the password change (issue 16, finding 10).
    expect((await browser.call('POST', '/v1/auth/password-reset/confirm', { token: older, password: 'yet another passphrase' })).status).toBe(400);
    expect((await browser.call('GET', '/v1/auth/session')).status).toBe(401);
    expect((await new PortalBrowser(url).call('POST', '/v1/auth/login', { email, password })).status).toBe(401);
    await new PortalBrowser(url).login(email, newPassword);
  });

  it('locks an address from one client after 5 wrong passwords, known or not alike, without locking the owner out elsewhere', async () => {
    const browser = new PortalBrowser(url);
    const from = (ip: string, address: string, pass: string) =>
      browser.call('POST', '/v1/auth/login', { email: address, password: pass }, { headers: { 'x-forwarded-for': ip } });
    const attempts = async (address: string) => {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await from('198.51.100.20', address, `wrong guess ${i}`));
      return answers.map((a) => [a.status, a.body.message]);
    };
    const known = await attempts(email);
    // Unique per run: a lock outlives the run by 15 minutes in a database the next run reuses.
    const unknown = await attempts(`nobody-${Date.now()}@example.test`);
    expect(known.map(([status]) => status)).toEqual([401, 401, 401, 401, 429]);
    // The same answers for an address without an account: nothing tells them apart (issue 16, finding 9).
    expect(unknown).toEqual(known);
    const locked = await from('198.51.100.20', email, 'an even longer passphrase'); // the right one (reset above)
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_requests');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The owner, from their own address, still signs in.
    expect((await from('198.51.100.21', email, 'an even longer passphrase')).status).toBe(200);
  });

  it('blocks an IP after 20 failed logins across accounts (429 with Retry-After), not the other IPs', async () => {
    const browser = new PortalBrowser(url);
    const from = (ip: string, address: string) =>
      browser.call('POST', '/v1/auth/login', { email: address, password: 'not the password' }, { headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      statuses.push((await from('203.0.113.7', `guess-${i}@example.test`)).status);
    }
    expect(statuses).toEqual([...Array(20).fill(401), 429, 429]);
    const blocked = await from('203.0.113.7', 'someone-else@example.test');
    expect(blocked.body.code).toBe('too_many_requests');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await from('203.0.113.8', 'someone-else@example.test')).status).toBe(401);
  });



});
