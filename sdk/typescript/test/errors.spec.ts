import { BadRequestError, ConflictError, NotFoundError, RateLimitError, UnprocessableEntityError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';

/** The rate limit of the api process of this suite, requests per minute per credential. */
const LIMIT = 40;

describe('SDK: error classes, idempotency keys and rate limits (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-errors', { TIERWISE_API_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  it('answers a malformed cursor with BadRequestError', async () => {
    const error = await live.admin.volumes.list({ cursor: 'not-a-cursor' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('bad_request');
  });

  it('replays the first answer for the same Idempotency-Key and body, and refuses another body with 422', async () => {
    const idempotencyKey = `dismiss-${live.world.tenantId}`;
    const first = await live.admin.recommendations.dismiss(live.world.recommendedVolume, 'retired', { idempotencyKey });
    const retry = await live.admin.raw.POST('/v1/recommendations/{volumeId}/dismiss', {
      params: { path: { volumeId: live.world.recommendedVolume }, header: { 'Idempotency-Key': idempotencyKey } },
      body: { reason: 'retired' },
    });
    expect(retry.response.status).toBe(200);
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.data).toEqual(first);
    const { rows } = await live.world.tenants.owner.query('SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = $1 AND action = $2', [live.world.tenantId, 'recommendation.dismiss']);
    expect(rows[0].n).toBe(1);
    const reused = await live.admin.recommendations.dismiss(live.world.recommendedVolume, 'another reason', { idempotencyKey }).catch((caught: unknown) => caught);
    expect(reused).toBeInstanceOf(UnprocessableEntityError);
    expect((reused as UnprocessableEntityError).code).toBe('idempotency_key_reused');
  });

  it('frees the key of a failed request: the retry runs again and can succeed', async () => {
    const idempotencyKey = `apply-${live.world.tenantId}`;
    await expect(live.admin.recommendations.apply(live.world.plainVolume, {}, { idempotencyKey })).rejects.toBeInstanceOf(NotFoundError);
    await live.world.tenants.owner.query(
      `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation)
       VALUES ($1, $2, 8589934592, 'ram', 'write-back', 0.9, 0.95, 0.855, '{}', 'an 8 GiB RAM tier reaches 90 % hits')`,
      [live.world.tenantId, live.world.plainVolume],
    );
    const applied = await live.admin.recommendations.apply(live.world.plainVolume, {}, { idempotencyKey });
    expect(applied.policy).toMatchObject({ mode: 'write-back', write_back_copies: 1, tier_bytes: 8589934592, media: 'ram' });
  });

  it('never stores a new API key: a retry of its creation answers 409 naming the key', async () => {
    const idempotencyKey = `create-${live.world.tenantId}`;
    const created = await live.admin.apiKeys.create({ name: 'once', scope: 'read' }, { idempotencyKey });
    const retry = await live.admin.apiKeys.create({ name: 'once', scope: 'read' }, { idempotencyKey }).catch((caught: unknown) => caught);
    expect(retry).toBeInstanceOf(ConflictError);
    expect((retry as ConflictError).message).toContain(`succeeded already (id ${created.id}); its answer held a secret, shown only once`);
    const { rows } = await live.world.tenants.owner.query('SELECT response_body::text AS body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2', [live.world.tenantId, idempotencyKey]);
    expect(rows).toHaveLength(1);
    expect(rows[0].body).toContain(created.id);
    expect(rows[0].body).not.toContain(created.key);
    const { rows: keys } = await live.world.tenants.owner.query(`SELECT count(*)::int AS n FROM api_keys WHERE tenant_id = $1 AND name = 'once'`, [live.world.tenantId]);
    expect(keys[0].n).toBe(1);
  });

  it('sends RateLimit headers, then 429 with Retry-After as RateLimitError once the budget is spent', async () => {
    const reader = live.client(live.world.readKey);
    const first = await reader.raw.GET('/v1/fleet/summary');
    expect(first.response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    const remaining = Number(first.response.headers.get('ratelimit-remaining'));
    expect(remaining).toBe(LIMIT - 1);
    for (let spent = 0; spent < remaining; spent++) {
      await reader.fleet.summary();
    }
    const error = await reader.fleet.summary().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    const limited = error as RateLimitError;
    expect(limited.code).toBe('too_many_requests');
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(limited.response.headers.get('ratelimit-remaining')).toBe('0');
    // Another credential has its own budget.
    await expect(live.admin.fleet.summary()).resolves.toMatchObject({ volumes: 2 });
  });
});
