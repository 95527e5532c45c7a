import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from './support/ingest-app.js';

/** The fields of the answers these tests read (documents, reports, error bodies). */
interface Answer {
  etag: string;
  policies: { volume_id: string; version: number; tier_bytes: number }[];
  recorded: number;
  ignored: { volume_id: string; reason: string }[];
  message: string;
}
const asAnswer = (body: unknown): Answer => body as Answer;

describe('policy pull over HTTP (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;
  let other: ProvisionedTenant;
  const volumeId = hexId();
  const bare = hexId(); // a volume without a policy

  function get(query: string, headers: Record<string, string> = {}, token = tenant.agent_token): Promise<Response> {
    return fetch(`${url}/v1/agent/policies?${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  }

  function report(reports: object[], token = tenant.agent_token): Promise<Response> {
    return fetch(`${url}/v1/agent/policies/applied`, {
      method: 'POST',
      body: JSON.stringify({ reports }),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
  }

  /** Sets the desired policy as the api would (a new version on every call). */
  async function setPolicy(tierBytes: number): Promise<void> {
    await tenants.owner.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, write_back_copies, tier_bytes, media, eviction, source, updated_by_kind, updated_by_id)
       VALUES ($1, $2, 1, 'write-through', NULL, $3, 'ram', 'lru', 'manual', 'api_key', gen_random_uuid())
       ON CONFLICT (tenant_id, volume_id) DO UPDATE SET version = volume_policies.version + 1, tier_bytes = EXCLUDED.tier_bytes`,
      [tenant.tenant_id, volumeId, tierBytes],
    );
  }

  async function applied(): Promise<{ applied_version: number | null; applied_error: string | null; applied_agent_id: string | null }> {
    const { rows } = await tenants.owner.query('SELECT applied_version, applied_error, applied_agent_id FROM volume_policies WHERE volume_id = $1', [volumeId]);
    return rows[0];
  }

  beforeAll(async () => {
    ({ app, url } = await startIngest());
    tenant = await tenants.create('policy-pull');
    other = await tenants.create('policy-pull-other');
    for (const id of [volumeId, bare]) await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: id, hostId: hexId() });
    await setPolicy(2 ** 30);
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('answers the desired policies of the named volumes with an ETag; 304 for the same ETag', async () => {
    const response = await get(`volumes=${volumeId},${bare}`);
    expect(response.status).toBe(200);
    const body = await response.json().then(asAnswer);
    expect(body.policies).toEqual([
      { volume_id: volumeId, version: 1, mode: 'write-through', write_back_copies: null, tier_bytes: 2 ** 30, media: 'ram', eviction: 'lru' },
    ]);
    expect(response.headers.get('etag')).toBe(body.etag);
    expect((await get(`volumes=${volumeId},${bare}`, { 'if-none-match': body.etag })).status).toBe(304);
  });

  it('holds a long-poll until the policy changes, then answers the new version at once', async () => {
    const first = await (await get(`volumes=${volumeId}`)).json().then(asAnswer);
    const started = Date.now();
    const poll = get(`volumes=${volumeId}`, { 'if-none-match': first.etag, prefer: 'wait=20' });
    await new Promise((r) => setTimeout(r, 500));
    await setPolicy(2 * 2 ** 30);
    const response = await poll;
    expect(response.status).toBe(200);
    expect(response.headers.get('preference-applied')).toBe('wait=20');
    const body = await response.json().then(asAnswer);
    expect(body.policies[0]).toMatchObject({ version: 2, tier_bytes: 2 * 2 ** 30 });
    expect(body.etag).not.toBe(first.etag);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers 304 when nothing changes within the wait', async () => {
    const { etag } = await (await get(`volumes=${volumeId}`)).json().then(asAnswer);
    const started = Date.now();
    const response = await get(`volumes=${volumeId}`, { 'if-none-match': etag, prefer: 'wait=1' });
    expect(response.status).toBe(304);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("never shows another tenant's policies", async () => {
    const body = await (await get(`volumes=${volumeId}`, {}, other.agent_token)).json().then(asAnswer);
    expect(body.policies).toEqual([]);
    const posted = await (await report([{ volume_id: volumeId, version: 1, applied_at: new Date().toISOString(), error: null }], other.agent_token)).json().then(asAnswer);
    expect(posted).toEqual({ recorded: 0, ignored: [{ volume_id: volumeId, reason: 'the volume has no policy' }] });
  });

  it('records applied reports with their error, and ignores versions that are not desired', async () => {
    const { version } = (await (await get(`volumes=${volumeId}`)).json().then(asAnswer)).policies[0];
    const ok = await report([
      { volume_id: volumeId, version, applied_at: new Date().toISOString(), error: 'tier size 2048 MiB is larger than the configured tier device (256 MiB)' },
      { volume_id: bare, version: 1, applied_at: new Date().toISOString(), error: null },
    ]);
    expect(ok.status).toBe(200);
    expect(await ok.json().then(asAnswer)).toEqual({ recorded: 1, ignored: [{ volume_id: bare, reason: 'the volume has no policy' }] });
    expect(await applied()).toEqual({ applied_version: version, applied_error: 'tier size 2048 MiB is larger than the configured tier device (256 MiB)', applied_agent_id: tenant.agent_id });

    const ahead = await (await report([{ volume_id: volumeId, version: version + 5, applied_at: new Date().toISOString(), error: null }])).json().then(asAnswer);
    expect(ahead.ignored[0].reason).toBe(`version ${version + 5} is newer than the desired version ${version}`);
    const behind = await (await report([{ volume_id: volumeId, version: 1, applied_at: new Date().toISOString(), error: null }])).json().then(asAnswer);
    expect(behind.ignored[0].reason).toBe(`version 1 is older than the applied version ${version}`);
  });

  it('refuses malformed requests with a clear error', async () => {
    const badId = await get('volumes=NOT-HEX');
    expect(badId.status).toBe(400);
    expect((await badId.json().then(asAnswer)).message).toMatch(/lowercase hex/);
    expect((await get('')).status).toBe(400);
    const dup = await report([
      { volume_id: volumeId, version: 1, applied_at: new Date().toISOString(), error: null },
      { volume_id: volumeId, version: 1, applied_at: new Date().toISOString(), error: null },
    ]);
    expect(dup.status).toBe(400);
    expect((await dup.json().then(asAnswer)).message).toMatch(/each volume_id may appear once/);
    expect((await report([{ volume_id: volumeId, version: 1, applied_at: 'yesterday', error: null }])).status).toBe(400);
    expect((await fetch(`${url}/v1/agent/policies?volumes=${volumeId}`)).status).toBe(401);
  });
});
