import { ConflictError, NotFoundError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { GiB } from './support/world.js';

describe('SDK: recommendations (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-recommendations');
  it('lists and shows the open recommendation, and nothing of the other tenant', async () => {
    const page = await live.admin.recommendations.list();
    expect(page.data.map((r) => [r.volume_id, r.status, r.tier_bytes, r.media])).toEqual([[live.world.recommendedVolume, 'open', 64 * GiB, 'nvme']]);
    expect(await live.admin.recommendations.get(live.world.recommendedVolume)).toMatchObject({
      volume_id: live.world.recommendedVolume,
      host_id: live.world.hostId,
      policy: 'write-through',
      status: 'open',
      window_name: '24h',
      offloaded_iops: 1250.5,
      offloaded_bytes_per_second: 5 * 1024 ** 2,
      predicted_latency_us: 180.5,
      datastore_latency_us: 950,
      measured_hit_ratio: null,
      hit_ratio_error: null,
      eviction: 'sieve',
    });
    await expect(live.admin.recommendations.get(live.world.otherVolume)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("applies it: the volume's desired policy takes its size, media and mode; a second apply conflicts", async () => {
    const seen = await live.admin.recommendations.get(live.world.recommendedVolume);
    const applied = await live.admin.recommendations.apply(live.world.recommendedVolume, { eviction: 'arc', created_at: seen.created_at });
    expect(applied.recommendation).toMatchObject({ status: 'applied', decided_at: expect.any(String) });
    expect(applied.policy).toMatchObject({ version: 1, mode: 'write-through', write_back_copies: null, tier_bytes: 64 * GiB, media: 'nvme', eviction: 'arc', source: 'recommendation' });
    expect(await live.admin.volumes.getPolicy(live.world.recommendedVolume)).toEqual(applied.policy);
    expect((await live.admin.recommendations.list({ status: 'open' })).data).toEqual([]);
    const again = await live.admin.recommendations.apply(live.world.recommendedVolume).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ConflictError);
    expect((again as ConflictError).message).toMatch(/is applied already$/);
  });

  it('dismisses a recommendation that changed since (the stream jobs rewrote it): open again, then dismissed', async () => {
    await live.world.tenants.owner.query(`UPDATE recommendations SET tier_bytes = $3, created_at = now() WHERE tenant_id = $1 AND volume_id = $2`, [live.world.tenantId, live.world.recommendedVolume, 128 * GiB]);
    expect(await live.admin.recommendations.get(live.world.recommendedVolume)).toMatchObject({ status: 'open', tier_bytes: 128 * GiB });
    const dismissed = await live.admin.recommendations.dismiss(live.world.recommendedVolume, 'volume is being retired');
    expect(dismissed).toMatchObject({ status: 'dismissed', reason: 'volume is being retired' });
    expect((await live.admin.recommendations.list({ status: 'dismissed' })).data.map((r) => r.volume_id)).toEqual([live.world.recommendedVolume]);
  });

  it('pages the history of the predictions newest first, and refuses the other tenant\'s volume', async () => {
    const history = [];
    for await (const entry of live.admin.recommendations.iterateHistory(live.world.recommendedVolume, { limit: 1 })) {
      history.push([entry.tier_bytes, entry.predicted_hit_ratio, entry.measured_hit_ratio]);
    }
    expect(history).toEqual([
      [128 * GiB, 0.86, null],
      [64 * GiB, 0.86, null],
    ]);
    await expect(live.admin.recommendations.history(live.world.otherVolume)).rejects.toBeInstanceOf(NotFoundError);
  });
});
