/**
 * Members and invitations over HTTP (real api, real PostgreSQL): invitation mails with a
 * single-use link, accepting as a new or an existing user, role rules (only owners touch the
 * owner role, the last owner stays), removal ending the member's sessions, API keys acting as
 * admin (read-write) or viewer (read).
 */
import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';
import { deleteUsers, linkToken, mailsTo, PortalBrowser, type SeededUser, seedUser } from './support/portal-browser.js';

describe('members and invitations (real api, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  const owner = tenants.owner;
  let app: NestExpressApplication;
  let url: string;
  let org: ProvisionedTenant;
  let other: ProvisionedTenant;
  let founder: SeededUser;
  let admin: SeededUser;
  let elsewhere: SeededUser;
  const emails: string[] = [];
  const newcomer = `newcomer-${randomUUID().slice(0, 8)}@example.test`;

  const loggedIn = async (user: SeededUser): Promise<PortalBrowser> => {
    const browser = new PortalBrowser(url);
    await browser.login(user.email, user.password);
    return browser;
  };

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [org, other] = [await tenants.create('members'), await tenants.create('members-other')];
    founder = await seedUser(owner, org.tenant_id, 'owner', 'founder');
    admin = await seedUser(owner, org.tenant_id, 'admin', 'admin');
    elsewhere = await seedUser(owner, other.tenant_id, 'owner', 'elsewhere');
    emails.push(founder.email, admin.email, elsewhere.email, newcomer);
  });

  afterAll(async () => {
    await app.close();
    await deleteUsers(owner, emails);
    await tenants.cleanUp();
  });

  it('invites a new address by mail; accepting creates the account and membership and logs in', async () => {
    const browser = await loggedIn(founder);
    const invited = await browser.call('POST', '/v1/organization/invitations', { email: newcomer, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: newcomer, role: 'viewer', invited_by: founder.id });
    expect((await browser.call('POST', '/v1/organization/invitations', { email: newcomer, role: 'admin' })).status).toBe(409);
    const [mail] = await mailsTo(owner, newcomer);
    expect(mail.tenant_id).toBe(org.tenant_id);
    expect(mail.payload.subject).toContain(founder.displayName);
    expect(mail.payload.text).toContain('/accept-invitation?token=');

    const guest = new PortalBrowser(url);
    const token = linkToken(mail.payload.text);
    expect((await guest.call('POST', '/v1/auth/invitations/accept', { token })).status).toBe(400);
    const accepted = await guest.call('POST', '/v1/auth/invitations/accept', { token, display_name: 'New Comer', password: 'newcomer passphrase' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ user: { email: newcomer }, organization: { id: org.tenant_id, role: 'viewer' } });
    expect((await guest.call('POST', '/v1/auth/invitations/accept', { token, display_name: 'Again', password: 'newcomer passphrase' })).status).toBe(404);
    expect((await guest.call('GET', '/v1/organization/members')).body.members.map((m: { email: string }) => m.email).sort()).toEqual(
      [founder.email, admin.email, newcomer].sort(),
    );
    expect((await guest.call('POST', '/v1/organization/invitations', { email: 'x@example.test', role: 'viewer' })).status).toBe(403);
  });

  it('lets an existing user of another organization accept only while logged in as that address, then switch organizations', async () => {
    const browser = await loggedIn(founder);
    expect((await browser.call('POST', '/v1/organization/invitations', { email: elsewhere.email, role: 'admin' })).status).toBe(201);
    const token = linkToken((await mailsTo(owner, elsewhere.email)).at(-1)!.payload.text);
    const anonymous = await new PortalBrowser(url).call('POST', '/v1/auth/invitations/accept', { token });
    expect(anonymous.status).toBe(401);
    const wrongUser = await (await loggedIn(admin)).call('POST', '/v1/auth/invitations/accept', { token });
    expect(wrongUser.status).toBe(401);
    const mine = await loggedIn(elsewhere);
    const accepted = await mine.call('POST', '/v1/auth/invitations/accept', { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.organization).toEqual({ id: org.tenant_id, name: 'test-members', role: 'admin' });
    expect(accepted.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual([org.tenant_id, other.tenant_id].sort());
    const back = await mine.call('POST', '/v1/auth/organization', { organization_id: other.tenant_id });
    expect(back.body.organization).toMatchObject({ id: other.tenant_id, role: 'owner' });
    expect((await mine.call('POST', '/v1/auth/organization', { organization_id: randomUUID() })).status).toBe(404);
  });

  it('keeps the owner role to owners and never leaves an organization without an owner', async () => {
    const asAdmin = await loggedIn(admin);
    const asFounder = await loggedIn(founder);
    expect((await asAdmin.call('PATCH', `/v1/organization/members/${admin.id}`, { role: 'owner' })).status).toBe(403);
    expect((await asAdmin.call('POST', '/v1/organization/invitations', { email: `o-${randomUUID().slice(0, 6)}@example.test`, role: 'owner' })).status).toBe(403);
    expect((await asAdmin.call('DELETE', `/v1/organization/members/${founder.id}`)).status).toBe(403);
    const lastOwner = await asFounder.call('PATCH', `/v1/organization/members/${founder.id}`, { role: 'admin' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body).toMatchObject({ code: 'conflict', message: expect.stringMatching(/owner/) });
    expect((await asFounder.call('DELETE', '/v1/organization/membership')).status).toBe(409);
    expect((await asFounder.call('PATCH', `/v1/organization/members/${admin.id}`, { role: 'owner' })).status).toBe(204);
    expect((await asFounder.call('PATCH', `/v1/organization/members/${founder.id}`, { role: 'admin' })).status).toBe(204);
    const roles = await asAdmin.call('GET', '/v1/organization/members');
    expect(roles.body.members.filter((m: { role: string }) => m.role === 'owner').map((m: { user_id: string }) => m.user_id)).toEqual([admin.id]);
    expect((await asFounder.call('PATCH', `/v1/organization/members/${randomUUID()}`, { role: 'viewer' })).status).toBe(404);
  });

  it("removes a member: the member's sessions in that organization end at once", async () => {
    const viewer = await seedUser(owner, org.tenant_id, 'viewer', 'leaver');
    emails.push(viewer.email);
    const viewerBrowser = await loggedIn(viewer);
    expect((await viewerBrowser.call('GET', '/v1/fleet/summary')).status).toBe(200);
    expect((await viewerBrowser.call('DELETE', `/v1/organization/members/${admin.id}`)).status).toBe(403);
    const asAdmin = await loggedIn(admin);
    expect((await asAdmin.call('DELETE', `/v1/organization/members/${viewer.id}`)).status).toBe(204);
    expect((await viewerBrowser.call('GET', '/v1/fleet/summary')).status).toBe(401);
    expect((await new PortalBrowser(url).call('POST', '/v1/auth/login', { email: viewer.email, password: viewer.password })).status).toBe(403);
  });

  it('writes every member and invitation change to the audit log: who, what, before/after, from where', async () => {
    const asAdmin = await loggedIn(admin); // an owner since the role test
    const log = await asAdmin.call('GET', '/v1/audit-log?limit=100');
    expect(log.status).toBe(200);
    const entries = log.body.data as { actor: { kind: string; id: string }; action: string; target_id: string; before: unknown; after: unknown; ip: string | null }[];
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: { kind: 'user', id: founder.id }, action: 'invitation.create', after: { email: newcomer, role: 'viewer' }, ip: expect.stringMatching(/127\.0\.0\.1/) }),
        expect.objectContaining({ action: 'invitation.accept', after: expect.objectContaining({ status: 'accepted', role: 'viewer' }) }),
        expect.objectContaining({ actor: { kind: 'user', id: founder.id }, action: 'member.role_change', target_id: admin.id, before: { role: 'admin' }, after: { role: 'owner' } }),
        expect.objectContaining({ actor: { kind: 'user', id: admin.id }, action: 'member.remove', before: { role: 'viewer' }, after: null }),
      ]),
    );
  });

  it('lets a read-write API key manage members as an admin and a read key only list them', async () => {
    const writeKey = (await tenants.createApiKey(org.tenant_id, 'read-write', 'members rw')).key;
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    expect((await call(org.api_key, 'GET', '/v1/organization/members')).status).toBe(200);
    expect((await call(org.api_key, 'POST', '/v1/organization/invitations', { email: 'k@example.test', role: 'viewer' })).status).toBe(403);
    const invited = await call(writeKey, 'POST', '/v1/organization/invitations', { email: `key-${randomUUID().slice(0, 6)}@example.test`, role: 'viewer' });
    expect(invited.status).toBe(201);
    const { id, invited_by } = (await invited.json()) as { id: string; invited_by: string | null };
    expect(invited_by).toBeNull();
    expect((await call(writeKey, 'POST', '/v1/organization/invitations', { email: 'k2@example.test', role: 'owner' })).status).toBe(403);
    expect((await call(writeKey, 'DELETE', `/v1/organization/invitations/${id}`)).status).toBe(204);
    expect((await call(writeKey, 'DELETE', `/v1/organization/invitations/${id}`)).status).toBe(404);
  });
});
