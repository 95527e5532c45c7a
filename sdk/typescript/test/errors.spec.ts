import { BadRequestError, ConflictError, RateLimitError, Tierwise, UnprocessableEntityError } from '@tierwise/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { type World } from './support/world.js';

/** The rate limit of the api process of this suite, requests per minute per credential. */
const LIMIT = 40;

describe('SDK: error classes, idempotency keys and rate limits (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-errors', { TIERWISE_API_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  let world: World;
  let admin: Tierwise;

  beforeAll(() => {
    world = live.world;
    admin = live.client(world.adminKey);
  });

  it('answers a malformed cursor with BadRequestError', async () => {
    const error = await admin.volumes.list({ cursor: 'not-a-cursor' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).code).toBe('bad_request');
  });

  it('replays the first answer for the same Idempotency-Key and body, and refuses another body with 422', async () => {
    const idempotencyKey = `create-${world.tenantId}`;
    const first = await admin.apiKeys.create({ name: 'once', scope: 'read' }, { idempotencyKey });
    const retry = await admin.raw.POST('/v1/api-keys', { params: { header: { 'Idempotency-Key': idempotencyKey } }, body: { scope: 'read', name: 'once' } });
    expect(retry.response.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.data).toEqual(first);
    const { rows } = await world.tenants.owner.query(`SELECT count(*)::int AS n FROM api_keys WHERE tenant_id = $1 AND name = 'once'`, [world.tenantId]);
    expect(rows[0].n).toBe(1);
    const reused = await admin.apiKeys.create({ name: 'twice', scope: 'read' }, { idempotencyKey }).catch((caught: unknown) => caught);
    expect(reused).toBeInstanceOf(UnprocessableEntityError);
    expect((reused as UnprocessableEntityError).code).toBe('idempotency_key_reused');
  });

  it('frees the key of a failed request: the retry runs again (and conflicts again)', async () => {
    await admin.recommendations.dismiss(world.recommendedVolume);
    const idempotencyKey = `dismiss-${world.tenantId}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await admin.recommendations.dismiss(world.recommendedVolume, undefined, { idempotencyKey }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConflictError);
    }
  });

  it('sends RateLimit headers, then 429 with Retry-After as RateLimitError once the budget is spent', async () => {
    const reader = live.client(world.readKey);
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
    expect(limited.code).toBe('rate_limited');
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(limited.response.headers.get('ratelimit-remaining')).toBe('0');
    // Another credential has its own budget.
    await expect(admin.fleet.summary()).resolves.toMatchObject({ volumes: 2 });
  });
});
