import { ConflictError, PermissionDeniedError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';

describe('SDK: enrollment tokens and agents (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-agents');
  /** What install.sh does through `tierwise-agent enroll`: POST the token, host id and version. */
  async function enroll(token: string, hostId = 'a1b2c3d4e5f60718'): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${live.api.url}/v1/agents/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enrollment_token: token, host_id: hostId, version: '0.1.0' }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** What `tierwise-agent run` sends every health interval. */
  function report(credential: string, health: Record<string, unknown>): Promise<Response> {
    return fetch(`${live.api.url}/v1/agent/health`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: JSON.stringify(health),
    });
  }

  it('creates a single-use token shown once, enrolls one agent with it and refuses a second use with a clear 409', async () => {
    const created = await live.admin.enrollmentTokens.create({ name: 'rack 12' });
    expect(created).toMatchObject({ name: 'rack 12', status: 'usable', used_at: null, agent_id: null, token: expect.stringMatching(/^twe_[\w-]{43}$/) });
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(86_400_000);
    expect(JSON.stringify(await live.admin.enrollmentTokens.list())).not.toContain(created.token);

    const first = await enroll(created.token);
    expect(first).toEqual({ status: 201, body: { agent_id: expect.any(String), credential: expect.stringMatching(/^twa_[\w-]{43}$/) } });
    const { rows } = await live.world.tenants.owner.query(`SELECT token_sha256 = encode(sha256(convert_to($2, 'UTF8')), 'hex') AS hashed FROM agents WHERE id = $1`, [first.body.agent_id, first.body.credential]);
    expect(rows).toEqual([{ hashed: true }]);

    const second = await enroll(created.token, 'ffffffffffffffff');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'enrollment_token_used', message: expect.stringMatching(/^enrollment token was used already at .+; a token enrolls one agent$/) });
    const used = (await live.admin.enrollmentTokens.list({ status: 'used' })).data.find((token) => token.id === created.id);
    expect(used).toMatchObject({ status: 'used', agent_id: first.body.agent_id, used_at: expect.any(String) });
  });

  it('refuses an expired token (410) and an unknown or deleted one (401), creating no agent', async () => {
    const before = (await live.admin.agents.list({ status: 'all' })).data.length;
    const expired = await live.admin.enrollmentTokens.create({ expires_in_seconds: 60 });
    await live.world.tenants.owner.query(`UPDATE enrollment_tokens SET created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE id = $1`, [expired.id]);
    const late = await enroll(expired.token);
    expect(late.status).toBe(410);
    expect(late.body).toMatchObject({ code: 'enrollment_token_expired', message: expect.stringMatching(/^enrollment token expired at /) });
    expect((await live.admin.enrollmentTokens.list({ status: 'expired' })).data.map((token) => token.id)).toContain(expired.id);

    const deleted = await live.admin.enrollmentTokens.create();
    expect(await live.admin.enrollmentTokens.delete(deleted.id)).toMatchObject({ id: deleted.id, status: 'usable' });
    expect(await enroll(deleted.token)).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect((await live.admin.agents.list({ status: 'all' })).data.length).toBe(before);
  });

  it('shows the health an agent reports, and refuses its reports once revoked', async () => {
    const token = await live.admin.enrollmentTokens.create();
    const { body } = await enroll(token.token, '0123456789abcdef');
    const credential = body.credential as string;
    const health = { version: '0.1.1', uptime_seconds: 42, volume_count: 2, tier_used_bytes: 4096 * 10, tier_capacity_bytes: 1 << 30, error_count: 1, last_error: 'datastore /x: EIO' };
    expect((await report(credential, health)).status).toBe(200);
    const agent = await live.admin.agents.get(body.agent_id as string);
    expect(agent).toMatchObject({ host_id: '0123456789abcdef', version: '0.1.1', revoked_at: null, enrolled_at: expect.any(String) });
    expect(agent.health).toMatchObject({ uptime_seconds: 42, volume_count: 2, tier_used_bytes: 40_960, tier_capacity_bytes: 1 << 30, error_count: 1, last_error: 'datastore /x: EIO', last_report_at: expect.any(String) });

    const bad = await report(credential, { ...health, uptime_seconds: -1 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'bad_request', message: expect.stringContaining('uptime_seconds') });

    expect(await live.admin.agents.revoke(agent.id)).toMatchObject({ id: agent.id, revoked_at: expect.any(String) });
    await expect(live.admin.agents.revoke(agent.id)).rejects.toBeInstanceOf(ConflictError);
    const refused = await report(credential, health);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'agent_revoked', message: expect.stringMatching(new RegExp(`^agent ${agent.id} was revoked at `)) });
    expect((await live.admin.agents.list()).data.map((a) => a.id)).not.toContain(agent.id);
    expect((await live.admin.agents.list({ status: 'revoked' })).data.map((a) => a.id)).toContain(agent.id);
    const actions = (await live.admin.auditLog.list()).data.map((entry) => `${entry.action} ${entry.target_id}`);
    expect(actions).toEqual(expect.arrayContaining([`agent.revoke ${agent.id}`, `enrollment_token.create ${token.id}`]));
  });

  it('pages through agents and tokens with the iterators', async () => {
    const agents: string[] = [];
    for await (const agent of live.admin.agents.iterate({ status: 'all', limit: 1 })) {
      agents.push(agent.id);
    }
    expect(new Set(agents).size).toBe(agents.length);
    expect(agents.length).toBeGreaterThanOrEqual(3);
    const tokens: string[] = [];
    for await (const token of live.admin.enrollmentTokens.iterate({ limit: 2 })) {
      tokens.push(token.id);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
  });

  it('lets a read key list agents but not create tokens, list tokens or revoke', async () => {
    const reader = live.client(live.world.readKey);
    expect((await reader.agents.list()).data.length).toBeGreaterThan(0);
    await expect(reader.enrollmentTokens.create()).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader.enrollmentTokens.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    const [agent] = (await reader.agents.list()).data;
    await expect(reader.agents.revoke(agent.id)).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
