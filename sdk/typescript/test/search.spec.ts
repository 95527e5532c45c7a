import { BadRequestError, Tierwise } from '@tierwise/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { type World } from './support/world.js';

describe('SDK: search (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-search');
  let world: World;
  let client: Tierwise;

  beforeAll(() => {
    world = live.world;
    client = live.client(world.readKey);
  });

  it('finds a volume by part of its name, whatever the case, and by the start of its id', async () => {
    expect(await client.search('DB-D')).toEqual({ data: [{ kind: 'volume', id: world.recommendedVolume, display_name: 'db-data', host_id: world.hostId, host_display_name: null }] });
    const byId = await client.search(world.plainVolume.slice(0, 10).toUpperCase());
    expect(byId.data).toContainEqual({ kind: 'volume', id: world.plainVolume, display_name: null, host_id: world.hostId, host_display_name: null });
    expect((await client.search(world.hostId)).data).toContainEqual({ kind: 'host', id: world.hostId, display_name: null, host_id: null, host_display_name: null });
  });

  it('limits the results, and finds nothing of the other tenant', async () => {
    const prefix = world.recommendedVolume.slice(0, 1);
    expect((await client.search(prefix, { limit: 1 })).data.length).toBeLessThanOrEqual(1);
    expect((await client.search(world.otherVolume)).data).toEqual([]);
  });

  it('refuses an empty search with BadRequestError', async () => {
    await expect(client.search('  ')).rejects.toBeInstanceOf(BadRequestError);
  });
});
