import { BadRequestError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';

describe('SDK: search (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-search');
  it('finds a volume by part of its name, whatever the case, and by the start of its id', async () => {
    expect(await live.reader.search('DB-D')).toEqual({ data: [{ kind: 'volume', id: live.world.recommendedVolume, display_name: 'db-data', host_id: live.world.hostId, host_display_name: null }] });
    const byId = await live.reader.search(live.world.plainVolume.slice(0, 10).toUpperCase());
    expect(byId.data).toContainEqual({ kind: 'volume', id: live.world.plainVolume, display_name: null, host_id: live.world.hostId, host_display_name: null });
    expect((await live.reader.search(live.world.hostId)).data).toContainEqual({ kind: 'host', id: live.world.hostId, display_name: null, host_id: null, host_display_name: null });
  });

  it('limits the results, and finds nothing of the other tenant', async () => {
    const prefix = live.world.recommendedVolume.slice(0, 1);
    expect((await live.reader.search(prefix, { limit: 1 })).data.length).toBeLessThanOrEqual(1);
    expect((await live.reader.search(live.world.otherVolume)).data).toEqual([]);
  });

  it('refuses an empty search with BadRequestError', async () => {
    await expect(live.reader.search('  ')).rejects.toBeInstanceOf(BadRequestError);
  });
});
