import { hexId } from '@tierwise/common/testing';
import { AuthenticationError, NotFoundError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';

describe('SDK: hosts (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-hosts');
  it("lists the tenant's host with its volume count, and nothing of the other tenant", async () => {
    const page = await live.reader.hosts.list();
    expect(page).toEqual({
      data: [{ host_id: live.world.hostId, display_name: null, first_seen: expect.any(String), last_seen: expect.any(String), volumes: 2 }],
      next_cursor: null,
    });
  });

  it('filters by last_seen', async () => {
    expect((await live.reader.hosts.list({ seen_since: new Date(Date.now() + 60_000).toISOString() })).data).toEqual([]);
    expect((await live.reader.hosts.list({ seen_since: '2000-01-01T00:00:00Z' })).data).toHaveLength(1);
  });

  it("reads the tier the host's volumes share: its merged stream's windows and recommendation", async () => {
    await live.world.tenants.owner.query(
      `INSERT INTO host_working_sets (tenant_id, host_id, window_name, window_start, window_end, volumes, wss_bytes,
         wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate, state_bytes)
       VALUES ($1, $2, 'all', now() - interval '2 hours', now(), 2, 1073741824, 1073741824, 0, 9000, 0.015, 290000)`,
      [live.world.tenantId, live.world.hostId],
    );
    const detail = await live.reader.hosts.workingSet(live.world.hostId);
    expect(detail).toMatchObject({ host_id: live.world.hostId, volumes: 2, recommendation: null });
    expect(detail.windows.map((w) => [w.window, w.working_set.wss_bytes, w.mrc])).toEqual([['all', 1024 ** 3, null]]);
    await expect(live.reader.hosts.workingSet(hexId())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a wrong key with AuthenticationError carrying the request id and the raw response', async () => {
    const error = await live.client('twk_wrong').hosts.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    const authError = error as AuthenticationError;
    expect({ status: authError.status, code: authError.code, message: authError.message }).toEqual({ status: 401, code: 'unauthorized', message: 'API key is unknown or revoked' });
    expect(authError.requestId).toBe(authError.response.headers.get('x-request-id'));
    expect(authError.docUrl).toBe(`${live.api.url}/docs/errors#unauthorized`);
  });
});
