/**
 * Recommendations over HTTP (real PostgreSQL): the stream jobs' prediction fields with their
 * units, and a volume's recommendation history, predicted against measured (issue 5); the
 * eviction policy a prediction is for, the one applying it takes, and the volume's miss ratio
 * curve per eviction policy (issue 15).
 * The rows are what the jobs write: the recommendation (its history row comes from the trigger),
 * then 10-second metrics at the recommended tier size (the measuring trigger), then a new
 * prediction (the upsert clears the measurement).
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';

const GIB = 1024 ** 3;

interface HistoryPage {
  data: { id: string; volume_id: string; tier_bytes: number; predicted_hit_ratio: number; measured_hit_ratio: number | null; hit_ratio_error: number | null; created_at: string }[];
  next_cursor: string | null;
}

describe('recommendations over HTTP (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let a: ProvisionedTenant;
  let b: ProvisionedTenant;
  const volumeOfA = hexId();
  const volumeOfB = hexId();
  const unappliedOfB = hexId();

  const get = async (path: string, apiKey: string) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** POSTs `body` as JSON; with `body` undefined, no body and no content type (`curl -X POST`). */
  const post = async (path: string, apiKey: string, body?: Record<string, unknown>) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Sends `body` as JSON with `method`; the status alone. */
  const send = async (method: string, path: string, apiKey: string, body: Record<string, unknown>) =>
    (await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })).status;

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [a, b] = [await tenants.create('rec-a'), await tenants.create('rec-b')];
    // 16 GiB write-through tier (an older, LRU prediction: no eviction policy), applied and
    // reported running by the agent at 12:00:06. Measured
    // (3 read hits, 1 read miss each): the interval with the tier full, and the one 10 minutes on;
    // not the interval before the report, nor the cold one right after it: 0.75 against 0.86 over 20 s.
    const full = 16 * GIB;
    await insertVolume(tenants.owner, a.tenant_id, {
      volumeId: volumeOfA,
      hostId: hexId(),
      tierBytes: 16 * GIB,
      prediction: { window: '24h', replicas: 0, offloadedIops: 1250.5, offloadedBytesPerSecond: 5_122_048, predictedLatencyUs: 180.5, datastoreLatencyUs: 950 },
      appliedAt: '2026-11-20T12:00:06Z',
      mrcCacheBytes: 16 * GIB,
      evictionCurves: { sieve: 0.12, '2q': 0.13, lru: 0.14, 's3-fifo': 0.11 },
      intervals: [
        { start: '2026-11-20T12:00:00Z', readOps: 4, writeOps: 0, hits: 0, misses: 4, occupancyBytes: full },
        { start: '2026-11-20T12:00:10Z', readOps: 4, writeOps: 0, hits: 0, misses: 4 },
        { start: '2026-11-20T12:00:20Z', readOps: 4, writeOps: 0, hits: 3, misses: 1, occupancyBytes: full },
        { start: '2026-11-20T12:10:10Z', readOps: 4, writeOps: 0, hits: 3, misses: 1 },
      ],
    });
    // The same at a recommendation nobody applied: the replay that produced it measures nothing.
    await insertVolume(tenants.owner, b.tenant_id, {
      volumeId: unappliedOfB,
      hostId: hexId(),
      tierBytes: 16 * GIB,
      intervals: [{ start: '2026-11-20T12:00:20Z', readOps: 4, writeOps: 0, hits: 3, misses: 1, occupancyBytes: full }],
    });
    // The jobs' next prediction: 32 GiB of S3-FIFO, 0.93, writing 48 GiB a day into the tier, not measured yet.
    await tenants.owner.query(
      `UPDATE recommendations SET tier_bytes = $3, eviction = 's3-fifo', predicted_hit_ratio = 0.93, created_at = '2026-11-20T12:10:05Z',
              tier_write_bytes_per_day = $4,
              measured_hits = 0, measured_misses = 0, measured_hit_ratio = NULL, measured_at = NULL
        WHERE tenant_id = $1 AND volume_id = $2`,
      [a.tenant_id, volumeOfA, 32 * GIB, 48 * GIB],
    );
    await insertVolume(tenants.owner, b.tenant_id, { volumeId: volumeOfB, hostId: hexId(), tierBytes: 8 * GIB, eviction: 'sieve' });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('returns the window, replicas, offload per second and latencies in microseconds, null until measured', async () => {
    const expected = {
      tier_bytes: 32 * GIB,
      window_name: '24h',
      replicas: 0,
      predicted_hit_ratio: 0.93,
      offloaded_iops: 1250.5,
      offloaded_bytes_per_second: 5_122_048,
      predicted_latency_us: 180.5,
      datastore_latency_us: 950,
      tier_write_bytes_per_day: 48 * GIB,
      drive_writes_per_day: 1.5,
      measured_hit_ratio: null,
      measured_at: null,
      measured_seconds: null,
      hit_ratio_error: null,
      eviction: 's3-fifo',
      created_at: '2026-11-20T12:10:05.000Z',
    };
    const one = await get(`/v1/recommendations/${volumeOfA}`, a.api_key);
    expect(one).toMatchObject({ status: 200, body: { volume_id: volumeOfA, ...expected } });
    const list = await get('/v1/recommendations', a.api_key);
    expect(list.body.data).toEqual([expect.objectContaining({ volume_id: volumeOfA, ...expected })]);
    const detail = await get(`/v1/volumes/${volumeOfA}`, a.api_key);
    expect(detail.body.recommendation).toMatchObject(expected);
    expect((await get(`/v1/recommendations/${volumeOfB}`, b.api_key)).body).toMatchObject({ eviction: 'sieve' });
    // A recommendation written without latency samples: the latencies are null, not 0.
    expect((await get(`/v1/recommendations/${volumeOfB}`, b.api_key)).body).toMatchObject({ window_name: 'all', predicted_latency_us: null, datastore_latency_us: null });
    // One written before the jobs predicted tier writes: null, not 0.
    expect((await get(`/v1/recommendations/${volumeOfB}`, b.api_key)).body).toMatchObject({ tier_write_bytes_per_day: null, drive_writes_per_day: null });
  });

  it('lists the history newest first, the measured hit ratio and its error where the prediction ran', async () => {
    const { status, body } = await get(`/v1/volumes/${volumeOfA}/recommendations/history`, a.api_key);
    expect(status).toBe(200);
    const page = body as unknown as HistoryPage;
    expect(page.data.map(({ tier_bytes, predicted_hit_ratio, measured_hit_ratio, created_at }) => ({ tier_bytes, predicted_hit_ratio, measured_hit_ratio, created_at }))).toEqual([
      { tier_bytes: 32 * GIB, predicted_hit_ratio: 0.93, measured_hit_ratio: null, created_at: '2026-11-20T12:10:05.000Z' },
      { tier_bytes: 16 * GIB, predicted_hit_ratio: 0.86, measured_hit_ratio: 0.75, created_at: '2026-11-20T12:00:05.000Z' },
    ]);
    expect(page.data[0].hit_ratio_error).toBeNull();
    expect(page.data[1].hit_ratio_error).toBeCloseTo(-0.11, 12);
    expect(page.data[1]).toMatchObject({ volume_id: volumeOfA, offloaded_bytes_per_second: 5_122_048, predicted_latency_us: 180.5, measured_at: expect.any(String), measured_seconds: 20 });
    expect(page.data[0]).toMatchObject({ measured_seconds: null, eviction: 's3-fifo' });
    expect(page.data[1]).toMatchObject({ eviction: null });
    expect(page.next_cursor).toBeNull();
  });

  it('measures only a recommendation that was applied and reported running', async () => {
    const { body } = await get(`/v1/recommendations/${unappliedOfB}`, b.api_key);
    expect(body).toMatchObject({ measured_hit_ratio: null, measured_seconds: null, hit_ratio_error: null });
  });

  it('pages the history with the cursor, and refuses a cursor of another list', async () => {
    const first = (await get(`/v1/volumes/${volumeOfA}/recommendations/history?limit=1`, a.api_key)).body as unknown as HistoryPage;
    expect(first.data.map((entry) => entry.tier_bytes)).toEqual([32 * GIB]);
    const second = (await get(`/v1/volumes/${volumeOfA}/recommendations/history?limit=1&cursor=${first.next_cursor}`, a.api_key)).body as unknown as HistoryPage;
    expect(second).toMatchObject({ data: [{ tier_bytes: 16 * GIB }], next_cursor: null });
    const listCursor = Buffer.from(JSON.stringify(['recommendations', '2026-11-20T12:10:05.000Z', volumeOfA])).toString('base64url');
    expect(await get(`/v1/volumes/${volumeOfA}/recommendations/history?cursor=${listCursor}`, a.api_key)).toMatchObject({
      status: 400,
      body: { code: 'bad_request', message: 'cursor belongs to recommendations, not recommendation-history' },
    });
  });

  it("answers 404 for another tenant's volume and shows each tenant its own history only", async () => {
    expect(await get(`/v1/volumes/${volumeOfA}/recommendations/history`, b.api_key)).toMatchObject({ status: 404, body: { code: 'not_found', message: `volume ${volumeOfA} not found` } });
    const ofB = (await get(`/v1/volumes/${volumeOfB}/recommendations/history`, b.api_key)).body as unknown as HistoryPage;
    expect(ofB.data.map((entry) => [entry.volume_id, entry.tier_bytes])).toEqual([[volumeOfB, 8 * GIB]]);
    expect(await get(`/v1/volumes/${volumeOfB}/recommendations/history`, a.api_key)).toMatchObject({ status: 404 });
  });

  it("gives the volume's miss ratio curve of each eviction policy simulated, in the api's order of the policies", async () => {
    const curve = (missRatio: number) => [{ cache_bytes: 0, miss_ratio: 1 }, { cache_bytes: 16 * GIB, miss_ratio: missRatio }];
    const { body } = await get(`/v1/volumes/${volumeOfA}`, a.api_key);
    expect(body.mrc).toEqual({
      method: 'shards-fixed-rate',
      sampling_rate: 0.01,
      points: curve(0.14),
      curves: [
        { eviction: 'lru', points: curve(0.14) },
        { eviction: 's3-fifo', points: curve(0.11) },
        { eviction: '2q', points: curve(0.13) },
        { eviction: 'sieve', points: curve(0.12) },
      ],
    });
  });

  it("applies the recommendation's eviction policy when the body names none or there is no body, else the engine's default for an older prediction", async () => {
    const adminOfA = (await tenants.createApiKey(a.tenant_id, 'read-write')).key;
    const adminOfB = (await tenants.createApiKey(b.tenant_id, 'read-write')).key;
    expect(await post(`/v1/recommendations/${volumeOfA}/apply`, adminOfA)).toMatchObject({ status: 200, body: { policy: { tier_bytes: 32 * GIB, eviction: 's3-fifo' } } });
    expect(await post(`/v1/recommendations/${volumeOfB}/apply`, adminOfB, {})).toMatchObject({ status: 200, body: { policy: { tier_bytes: 8 * GIB, eviction: 'sieve' } } });
    // An older prediction (no eviction policy): the engine's default; a named one wins.
    await tenants.owner.query(`UPDATE recommendations SET eviction = NULL, created_at = now() WHERE tenant_id = $1 AND volume_id = $2`, [b.tenant_id, volumeOfB]);
    expect(await post(`/v1/recommendations/${volumeOfB}/apply`, adminOfB, {})).toMatchObject({ status: 200, body: { recommendation: { eviction: null }, policy: { version: 2, eviction: 's3-fifo' } } });
    expect(await post(`/v1/recommendations/${unappliedOfB}/apply`, adminOfB, { eviction: 'lru' })).toMatchObject({ status: 200, body: { policy: { eviction: 'lru' } } });
  });
  it('answers concurrent applies, dismisses and policy changes of one volume with 200 or 409, never 500', async () => {
    const volume = hexId();
    await insertVolume(tenants.owner, a.tenant_id, { volumeId: volume, hostId: hexId(), tierBytes: 8 * GIB, eviction: 's3-fifo' });
    const admin = (await tenants.createApiKey(a.tenant_id, 'read-write')).key;
    const requests = Array.from({ length: 21 }, (_, i) =>
      i % 3 === 0 ? send('POST', `/v1/recommendations/${volume}/apply`, admin, {})
        : i % 3 === 1 ? send('POST', `/v1/recommendations/${volume}/dismiss`, admin, {})
          : send('PUT', `/v1/volumes/${volume}/policy`, admin, { mode: 'write-through', tier_bytes: (i + 1) * GIB, media: 'nvme' }));
    const statuses = await Promise.all(requests);
    const counts = statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});
    expect(Object.keys(counts).map(Number).every((s) => s === 200 || s === 409), JSON.stringify(counts)).toBe(true);
    expect(counts[200]).toBeGreaterThan(0);
  });
});
