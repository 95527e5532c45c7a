import { hexId } from '@tierwise/common/testing';
import { NotFoundError, Tierwise } from '@tierwise/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { GiB, type World } from './support/world.js';

describe('SDK: clusters (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-clusters');
  let world: World;
  let client: Tierwise;
  const clusterId = hexId();

  beforeAll(async () => {
    world = live.world;
    client = live.client(world.readKey);
    // The rows the stream jobs' cluster working-set function writes for one window.
    await world.tenants.owner.query(
      `INSERT INTO cluster_working_sets (tenant_id, cluster_id, window_name, window_start, window_end, volumes, wss_bytes,
         wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate, state_bytes)
       VALUES ($1, $2, 'all', now() - interval '2 hours', now(), 2, $3::bigint, $3::bigint, 0, 9000, 0.015, 290000)`,
      [world.tenantId, clusterId, 2 * GiB],
    );
    await world.tenants.owner.query(
      `INSERT INTO cluster_mrcs (tenant_id, cluster_id, window_name, method, sampling_rate, points)
       VALUES ($1, $2, 'all', 'shards-fixed-size', 0.015, '[{"cache_bytes": 1073741824, "miss_ratio": 0.44}]')`,
      [world.tenantId, clusterId],
    );
  });

  it("lists the tenant's cluster and reads its working set and MRC", async () => {
    expect(await client.clusters.list()).toEqual({
      // No volume of the cluster was seen by ingest here: no hosts, no tier to add up.
      data: [{ cluster_id: clusterId, volumes: 2, wss_bytes: 2 * GiB, updated_at: expect.any(String), hosts: 0, capacity_bytes: 0, recommended_tier_bytes: null, volumes_recommended_tier_bytes: null }],
      next_cursor: null,
    });
    const detail = await client.clusters.workingSet(clusterId);
    expect(detail.windows).toHaveLength(1);
    expect(detail.windows[0]?.mrc?.points).toEqual([{ cache_bytes: GiB, miss_ratio: 0.44 }]);
    expect(detail.windows[0]?.working_set.wss_bytes).toBe(2 * GiB);
    expect(detail.windows[0]?.mrc?.curves).toEqual([]);
    expect(detail.recommendation).toBeNull();
  });

  it('answers NotFoundError for a cluster the tenant does not have', async () => {
    await expect(client.clusters.workingSet(hexId())).rejects.toBeInstanceOf(NotFoundError);
  });
});
