import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ErrorCode, type ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';

describe('api over HTTP (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let a: ProvisionedTenant;
  let b: ProvisionedTenant;
  const volumeOfA = hexId();
  const volumeOfB = hexId();

  const get = (path: string, apiKey?: string) =>
    fetch(`${url}${path}`, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} });

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [a, b] = [await tenants.create('api-a'), await tenants.create('api-b')];
    await insertVolume(tenants.owner, a.tenant_id, { volumeId: volumeOfA, hostId: hexId(), io: { readOps: 10, writeOps: 5, hits: 3, misses: 1 }, wssBytes: 4096 });
    await insertVolume(tenants.owner, b.tenant_id, { volumeId: volumeOfB, hostId: hexId(), io: { readOps: 99, writeOps: 99, hits: 1, misses: 3 }, tierBytes: 8192 });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it("shows tenant A's key A's volumes only", async () => {
    const list = await get('/v1/volumes', a.api_key);
    expect(list.status).toBe(200);
    const body = (await list.json()) as { data: { volume_id: string }[]; next_cursor: string | null };
    expect(body).toEqual({ data: [expect.objectContaining({ volume_id: volumeOfA, read_ops: 10, hit_ratio: 0.75, wss_bytes: 4096 })], next_cursor: null });

    const detail = await get(`/v1/volumes/${volumeOfA}`, a.api_key);
    expect(await detail.json()).toMatchObject({ volume_id: volumeOfA, io: { read_ops: 10, write_ops: 5 } });
    const summary = await get('/v1/fleet/summary', a.api_key);
    expect(await summary.json()).toMatchObject({ volumes: 1, read_ops: 10, write_ops: 5 });
  });

  it("answers 404 with the error body for an unknown volume, and for another tenant's volume", async () => {
    for (const volumeId of [hexId(), volumeOfB]) {
      const response = await get(`/v1/volumes/${volumeId}`, a.api_key);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        code: 'not_found',
        message: `volume ${volumeId} not found`,
        request_id: response.headers.get('x-request-id'),
        doc_url: `${url}/docs/errors#not_found`,
      });
    }
  });

  it('answers 401 for a missing or unknown key and 400 for a malformed volume id', async () => {
    const missing = await get('/v1/volumes');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'unauthorized', message: 'missing credential: Authorization: Bearer <api key>, or the portal session cookie' });
    const unknown = await get('/v1/fleet/summary', 'twk_not-a-real-key');
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toMatchObject({ code: 'unauthorized', message: 'API key is unknown or revoked' });
    const malformed = await get('/v1/volumes/NOT-HEX', a.api_key);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'bad_request', message: 'volumeId must be 8-64 lowercase hex characters' });
  });

  it('serves the OpenAPI 3.1 document, identical to the committed openapi.json (else: npm run -w @tierwise/api openapi)', async () => {
    const response = await get('/openapi.json');
    const served = (await response.json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: { ErrorCode: { enum: string[] } } } };
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths)).toEqual(expect.arrayContaining(['/v1/fleet/summary', '/v1/volumes', '/v1/volumes/{volumeId}', '/v1/audit-log']));
    expect(served.components.schemas.ErrorCode.enum).toEqual(Object.values(ErrorCode));
    const committed: unknown = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(committed, 'services/api/openapi.json is stale: run `npm run -w @tierwise/api openapi` and commit it').toEqual(served);
  });

  it('seeds a tenant whose agent token and API key work (compiled CLI)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/seed.js', '--tenant-name', 'test-seed'], { cwd: new URL('..', import.meta.url) });
    const seeded = JSON.parse(stdout) as ProvisionedTenant;
    tenants.track(seeded.tenant_id);
    expect(seeded).toEqual({
      tenant_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agent_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agent_token: expect.stringMatching(/^twa_[\w-]{43}$/),
      api_key: expect.stringMatching(/^twk_[\w-]{43}$/),
    });
    const summary = await get('/v1/fleet/summary', seeded.api_key);
    expect(await summary.json()).toMatchObject({ volumes: 0, hosts: 0, hit_ratio: null });
    const { rows } = await tenants.owner.query(`SELECT * FROM authenticate_agent(encode(sha256(convert_to($1, 'UTF8')), 'hex'))`, [
      seeded.agent_token,
    ]);
    expect(rows).toEqual([{ agent_id: seeded.agent_id, tenant_id: seeded.tenant_id }]);
  });

  it('seeds a tenant with a read-write key, which may create keys (a read key may not)', async () => {
    const seed = (...args: string[]) => promisify(execFile)(process.execPath, ['dist/cli/seed.js', '--tenant-name', 'test-seed-admin', ...args], { cwd: new URL('..', import.meta.url) });
    const seeded = JSON.parse((await seed('--scope', 'read-write')).stdout) as ProvisionedTenant;
    tenants.track(seeded.tenant_id);
    const create = (apiKey: string) =>
      fetch(`${url}/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: '{"name":"ci","scope":"read"}' });
    expect((await create(seeded.api_key)).status).toBe(201);
    expect((await create(a.api_key)).status).toBe(403);
    await expect(seed('--scope', 'owner')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--scope must be read or read-write (got 'owner')") });
  });

  it('seeds a tenant with an e-mail notification channel, and refuses a malformed address', async () => {
    const seed = (...args: string[]) => promisify(execFile)(process.execPath, ['dist/cli/seed.js', '--tenant-name', 'test-seed-email', ...args], { cwd: new URL('..', import.meta.url) });
    const seeded = JSON.parse((await seed('--email', 'ops@example.com')).stdout) as ProvisionedTenant & { email_channel_id: string };
    tenants.track(seeded.tenant_id);
    const { rows } = await tenants.owner.query(
      `SELECT c.id, c.kind, c.target, c.enabled, r.event_kinds
         FROM notification_channels c JOIN notification_routes r ON r.channel_id = c.id WHERE c.tenant_id = $1`,
      [seeded.tenant_id],
    );
    expect(rows).toEqual([
      { id: seeded.email_channel_id, kind: 'email', target: 'ops@example.com', enabled: true, event_kinds: ['recommendation.created', 'recommendation.updated'] },
    ]);
    const named = async () => (await tenants.owner.query(`SELECT count(*)::int AS n FROM tenants WHERE name = 'test-seed-email'`)).rows[0].n as number;
    const before = await named();
    await expect(seed('--email', 'not-an-address')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--email must be an e-mail address like ops@example.com (got 'not-an-address')") });
    expect(await named()).toBe(before);
  });

  it('seeds a portal login that signs in to the seeded tenant; seeding again moves it to the new tenant', async () => {
    const seed = (...args: string[]) => promisify(execFile)(process.execPath, ['dist/cli/seed.js', '--tenant-name', 'test-seed-login', ...args], { cwd: new URL('..', import.meta.url) });
    const email = `seed-login-${hexId()}@example.test`;
    type Seeded = ProvisionedTenant & { login_email: string; login_password: string };
    const login = (password: string) =>
      fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    try {
      const first = JSON.parse((await seed('--login', email.toUpperCase())).stdout) as Seeded;
      tenants.track(first.tenant_id);
      expect(first.login_email).toBe(email);
      expect(first.login_password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const answer = await login(first.login_password);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ organization: { id: first.tenant_id, role: 'owner' }, organizations: [{ id: first.tenant_id }] });

      const second = JSON.parse((await seed('--login', email)).stdout) as Seeded;
      tenants.track(second.tenant_id);
      expect((await login(first.login_password)).status).toBe(401);
      expect(await (await login(second.login_password)).json()).toMatchObject({ organizations: [{ id: second.tenant_id, role: 'owner' }] });
      await expect(seed('--login', 'nobody')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("--login must be an e-mail address like admin@example.com (got 'nobody')") });
    } finally {
      await tenants.owner.query('DELETE FROM users WHERE email = $1', [email]);
    }
  });
});
