import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { generateCredential, type ProvisionedTenant, sha256Hex } from '@tierwise/common';
import { hexId, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from './support/ingest-app.js';

/** Enrollments one address may attempt per minute in this file's app (main's default is 60). */
const ENROLL_LIMIT = 4;

/**
 * Ingest as the agent gateway (docs/agent-gateway.md): an agent enrolls and reports its health at
 * the same base URL that takes its telemetry and policies; enrollment, the one route without a
 * credential, is rate limited per address before any database work.
 */
describe('the agent gateway (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tenant: ProvisionedTenant;

  /** A one-time enrollment token of the tenant, as POST /v1/enrollment-tokens makes it on the api. */
  async function enrollmentToken(): Promise<string> {
    const token = generateCredential('twe_');
    await tenants.owner.query(
      `INSERT INTO enrollment_tokens (tenant_id, name, token_sha256, token_prefix, expires_at, created_by_kind, created_by_id)
       VALUES ($1, 'gateway test', $2, $3, now() + interval '1 hour', 'api_key', $4)`,
      [tenant.tenant_id, sha256Hex(token), token.slice(0, 8), randomUUID()],
    );
    return token;
  }

  const enroll = (body: object): Promise<Response> =>
    fetch(`${url}/v1/agents/enroll`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  beforeAll(async () => {
    process.env.TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE = String(ENROLL_LIMIT);
    ({ app, url } = await startIngest());
    tenant = await tenants.create('agent-gateway');
  });

  afterAll(async () => {
    await app?.close();
    await tenants.cleanUp();
  });

  it('enrolls an agent and takes its health report with the new credential; a token enrolls once', async () => {
    const token = await enrollmentToken();
    const hostId = hexId();
    const enrolled = await enroll({ enrollment_token: token, host_id: hostId, version: '0.1.0' });
    expect(enrolled.status).toBe(201);
    const { agent_id, credential } = (await enrolled.json()) as { agent_id: string; credential: string };
    expect(credential).toMatch(/^twa_/);
    const again = await enroll({ enrollment_token: token, host_id: hostId, version: '0.1.0' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('enrollment_token_used');

    const health = { version: '0.1.1', uptime_seconds: 60, volume_count: 2, tier_used_bytes: 4096, tier_capacity_bytes: 1 << 30, error_count: 1, last_error: 'x<b>' };
    const reported = await fetch(`${url}/v1/agent/health`, {
      method: 'PUT',
      body: JSON.stringify(health),
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    });
    expect(reported.status).toBe(200);
    expect(((await reported.json()) as { agent_id: string }).agent_id).toBe(agent_id);
    const { rows } = await tenants.owner.query('SELECT host_id, version, volume_count, last_error FROM agents WHERE id = $1', [agent_id]);
    expect(rows[0]).toEqual({ host_id: hostId, version: '0.1.1', volume_count: 2, last_error: 'x<b>' });
  });

  it('refuses a health report without a known credential, and a malformed enrollment with the field named', async () => {
    const anonymous = await fetch(`${url}/v1/agent/health`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    const malformed = await enroll({ enrollment_token: 'twe_x', host_id: 'not-hex', version: '0.1.0' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toMatch(/host_id/);
  });

  it(`answers 429 with Retry-After past ${ENROLL_LIMIT} enrollments a minute from one address, before looking at the token`, async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < ENROLL_LIMIT + 2; i++) {
      const answer = await enroll({ enrollment_token: `twe_unknown${i}`, host_id: hexId(), version: '0.1.0' });
      statuses.push(answer.status);
      retryAfter ??= answer.headers.get('retry-after');
    }
    // The earlier tests of this file spent 3 of the minute's attempts (two enrollments and a malformed one).
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 401)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
