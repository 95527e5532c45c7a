/**
 * OIDC login against a real OpenID provider (oidc-provider on 127.0.0.1, its development
 * login and consent pages driven like a browser would): authorization code with PKCE S256,
 * then the api finds the user by the (issuer, subject) link, links by verified e-mail, or
 * creates a user with an organization; a provider without a verified e-mail is refused.
 */
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TestTenants } from '@tierwise/common/testing';
import makeFetchCookie from 'fetch-cookie';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApi } from './support/live-api.js';
import { deleteUsers, seedUser, type SeededUser } from './support/portal-browser.js';

const PORTAL = 'http://127.0.0.1:9/portal';
const CLIENT = { id: 'tierwise-portal', secret: `secret-${randomUUID()}` };

/** Accounts of the provider: login name -> claims. */
const accounts = new Map<string, { email: string; email_verified: boolean; name: string }>();

describe('OIDC login (openid-client against a real oidc-provider)', () => {
  const tenants = new TestTenants();
  const owner = tenants.owner;
  let provider: Server;
  let issuer: string;
  let app: NestExpressApplication;
  let url: string;
  let existing: SeededUser;
  const created: string[] = [];

  beforeAll(async () => {
    const [providerPort, apiPort] = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${providerPort}`;
    url = `http://127.0.0.1:${apiPort}`;
    const oidc = new Provider(issuer, {
      clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${url}/v1/auth/oidc/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
      pkce: { required: () => true },
      ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
      cookies: { keys: [randomUUID()] },
    });
    provider = oidc.listen(providerPort, '127.0.0.1');
    Object.assign(process.env, {
      TIERWISE_OIDC_ISSUER: issuer,
      TIERWISE_OIDC_CLIENT_ID: CLIENT.id,
      TIERWISE_OIDC_CLIENT_SECRET: CLIENT.secret,
      TIERWISE_API_URL: url,
      TIERWISE_WEB_URL: PORTAL,
    });
    ({ app } = await startApi(apiPort));
    const tenant = await tenants.create('oidc');
    existing = await seedUser(owner, tenant.tenant_id, 'admin', 'oidc-existing');
  });

  afterAll(async () => {
    await app.close();
    provider.close();
    for (const name of ['TIERWISE_OIDC_ISSUER', 'TIERWISE_OIDC_CLIENT_ID', 'TIERWISE_OIDC_CLIENT_SECRET', 'TIERWISE_API_URL', 'TIERWISE_WEB_URL']) {
      delete process.env[name];
    }
    const { rows } = await owner.query<{ tenant_id: string }>('SELECT tenant_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ANY($1)', [created]);
    rows.forEach((row) => tenants.track(row.tenant_id));
    await deleteUsers(owner, [existing.email, ...created]);
    await tenants.cleanUp();
  });

  /**
   * A browser logging in through the provider as `login`: follows every redirect, fills the
   * provider's login and consent forms, and stops at the portal (or at the api's error).
   * @returns the authorization request, the api's last answer and the browser's fetch.
   */
  async function oidcLogin(login: string) {
    const browser = makeFetchCookie(fetch);
    let next = `${url}/v1/auth/oidc/login`;
    let authorizationUrl: URL | null = null;
    for (let hop = 0; hop < 12; hop++) {
      const page = await browser(next, { redirect: 'manual' });
      const location = page.headers.get('location');
      if (location) {
        next = new URL(location, next).toString();
        if (next.startsWith(`${issuer}/auth?`)) {
          authorizationUrl = new URL(next);
        }
        if (next.startsWith(PORTAL)) {
          return { authorizationUrl, final: page, browser };
        }
        continue;
      }
      const html = await page.text();
      if (!page.url.startsWith(issuer) && !next.startsWith(issuer)) {
        return { authorizationUrl, final: Object.assign(page, { bodyText: html }), browser };
      }
      const action = /action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) {
        throw new Error(`unexpected provider page at ${next}: ${html.slice(0, 300)}`);
      }
      const form = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'any' } : {}) });
      const submitted = await browser(new URL(action, next).toString(), { method: 'POST', body: form, redirect: 'manual' });
      next = new URL(submitted.headers.get('location') as string, next).toString();
    }
    throw new Error('too many redirects');
  }

  it('logs in an existing user by verified e-mail with code + PKCE S256, links the identity, and reuses the link', async () => {
    const subject = `sub-${randomUUID()}`;
    accounts.set(subject, { email: existing.email.toUpperCase(), email_verified: true, name: 'Existing Person' });
    const { authorizationUrl, final, browser } = await oidcLogin(subject);
    expect(final.status).toBe(302);
    expect(authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl?.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await browser(`${url}/v1/auth/session`);
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ user: { id: existing.id, email: existing.email }, organization: { role: 'admin' } });
    const links = await owner.query('SELECT issuer, subject FROM oidc_identities WHERE user_id = $1', [existing.id]);
    expect(links.rows).toEqual([{ issuer, subject }]);

    accounts.set(subject, { email: `renamed-${randomUUID().slice(0, 6)}@example.test`, email_verified: true, name: 'Existing Person' });
    const again = await oidcLogin(subject);
    expect(await (await again.browser(`${url}/v1/auth/session`)).json()).toMatchObject({ user: { id: existing.id } });
  });

  it('creates a user and an organization it owns for a new verified address', async () => {
    const subject = `sub-${randomUUID()}`;
    const email = `newcomer-${randomUUID().slice(0, 8)}@example.test`;
    created.push(email);
    accounts.set(subject, { email, email_verified: true, name: 'New Comer' });
    const { final, browser } = await oidcLogin(subject);
    expect(final.headers.get('location')).toBe(`${PORTAL}/`);
    const session = (await (await browser(`${url}/v1/auth/session`)).json()) as { user: { email: string }; organization: { name: string; role: string } };
    expect(session).toMatchObject({ user: { email, display_name: 'New Comer' }, organization: { name: "New Comer's organization", role: 'owner' } });
    const { rows } = await owner.query('SELECT password_hash, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([{ password_hash: null, verified: true }]);
  });

  it('takes over an address that was signed up but never verified: the unknown password is dropped', async () => {
    const email = `squatted-${randomUUID().slice(0, 8)}@example.test`;
    created.push(email);
    const signup = await fetch(`${url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'set by a squatter!', display_name: 'Squatter', organization_name: 'Squat' }),
    });
    expect(signup.status).toBe(202);
    const subject = `sub-${randomUUID()}`;
    accounts.set(subject, { email, email_verified: true, name: 'Real Owner' });
    const { browser } = await oidcLogin(subject);
    expect((await browser(`${url}/v1/auth/session`)).status).toBe(200);
    const { rows } = await owner.query('SELECT password_hash, email_verified_at IS NOT NULL AS verified FROM users WHERE email = $1', [email]);
    expect(rows).toEqual([{ password_hash: null, verified: true }]);
    const squatter = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'set by a squatter!' }) });
    expect(squatter.status).toBe(401);
  });

  it('refuses an identity without a verified e-mail address, and a callback without a login in progress', async () => {
    const subject = `sub-${randomUUID()}`;
    accounts.set(subject, { email: existing.email, email_verified: false, name: 'Unverified' });
    const { final } = await oidcLogin(subject);
    expect(final.status).toBe(403);
    expect(JSON.parse((final as Response & { bodyText: string }).bodyText)).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/verified e-mail/) });

    const stray = await fetch(`${url}/v1/auth/oidc/callback?code=abc&state=def`);
    expect(stray.status).toBe(400);
    expect(await stray.json()).toMatchObject({ code: 'bad_request' });
  });
});
