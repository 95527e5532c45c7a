/**
 * GET /v1/search over HTTP (real PostgreSQL): volumes and hosts found by a part of their display
 * name (case-insensitive; %, _ and \ in q are literal) or by the start of their id, best first;
 * never another tenant's, whether the query or row-level security stops it; 400 for an empty,
 * blank, missing or too long q. And the names every list that shows a volume or host carries
 * (recommendations, volumes, agents, audit log), null where the agent sent none.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DatabaseService, type ProvisionedTenant } from '@tierwise/common';
import { insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchRepository } from '../src/search/search.repository.js';
import { searchTerms } from '../src/search/search.service.js';
import { startApi } from './support/live-api.js';

interface Found {
  kind: 'volume' | 'host';
  id: string;
  display_name: string | null;
  host_id: string | null;
  host_display_name: string | null;
}

describe('search over HTTP (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let a: ProvisionedTenant;
  let b: ProvisionedTenant;
  // A's host and volumes; B's share a name fragment and an id prefix with them.
  const hostOfA = 'e5e5000000000001';
  const sqlOfA = 'abcd000000000001';
  const percentOfA = 'abcd000000000002';
  const spaceOfA = 'abcd000000000003';
  const anyOfA = 'abcd000000000004';
  const backslashOfA = 'abcd000000000005';
  const unnamedOfA = 'fe00000000000001';
  const sqlOfB = 'abcd0000000000b1';
  const hostOfB = 'e5e50000000000b1';

  const search = async (query: Record<string, string>, apiKey = a.api_key) => {
    const response = await fetch(`${url}/v1/search?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${apiKey}` } });
    return { status: response.status, body: (await response.json()) as { data: Found[] } & Record<string, unknown>, requestId: response.headers.get('x-request-id') };
  };
  const ids = async (q: string, apiKey = a.api_key) => {
    const { status, body } = await search({ q }, apiKey);
    expect({ q, status }).toEqual({ q, status: 200 });
    return body.data.map((found) => found.id);
  };

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [a, b] = [await tenants.create('search-a'), await tenants.create('search-b')];
    const owner = tenants.owner;
    await owner.query('INSERT INTO hosts (tenant_id, host_id, display_name) VALUES ($1, $2, $3), ($4, $5, $6)', [a.tenant_id, hostOfA, 'ESX-07', b.tenant_id, hostOfB, 'esx-07b']);
    for (const [volumeId, displayName] of [
      [sqlOfA, 'Prod-SQL-Data'],
      [percentOfA, '50%_reserved'],
      [spaceOfA, '50 reserved'],
      [anyOfA, '50xreserved'],
      [backslashOfA, 'c:\\data'],
      [unnamedOfA, undefined],
    ] as const) {
      await insertVolume(owner, a.tenant_id, { volumeId, hostId: hostOfA, displayName });
    }
    await insertVolume(owner, b.tenant_id, { volumeId: sqlOfB, hostId: hostOfB, displayName: 'prod-sql-data-b' });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('finds a volume by part of its name, whatever the case, with its kind, name and host', async () => {
    for (const q of ['sql', 'SQL-data', 'prod-sql-DATA']) {
      const { status, body } = await search({ q });
      expect({ q, status, body }).toEqual({ q, status: 200, body: { data: [{ kind: 'volume', id: sqlOfA, display_name: 'Prod-SQL-Data', host_id: hostOfA, host_display_name: 'ESX-07' }] } });
    }
  });

  it('finds hosts by name too', async () => {
    expect((await search({ q: 'esx' })).body.data).toEqual([{ kind: 'host', id: hostOfA, display_name: 'ESX-07', host_id: null, host_display_name: null }]);
  });

  it('finds volumes and hosts by the start of their id, in either case, named or not', async () => {
    expect(await ids('fe00')).toEqual([unnamedOfA]);
    expect(await ids('FE000000')).toEqual([unnamedOfA]);
    expect(await ids(unnamedOfA)).toEqual([unnamedOfA]);
    expect(await ids('e5e5')).toEqual([hostOfA]);
    // All five rank alike (ids starting with q); their order among themselves is by name, in the database's collation.
    expect((await ids('ABCD0000000000')).sort()).toEqual([sqlOfA, percentOfA, spaceOfA, anyOfA, backslashOfA].sort());
    expect(await ids('bcd0'), 'an id matches from its start only').toEqual([]);
  });

  it('matches %, _ and \\ in q literally', async () => {
    expect(await ids('50%')).toEqual([percentOfA]);
    expect(await ids('%_r')).toEqual([percentOfA]);
    expect(await ids('0_')).toEqual([]);
    expect(await ids('%')).toEqual([percentOfA]);
    expect(await ids('_')).toEqual([percentOfA]);
    expect(await ids('\\d')).toEqual([backslashOfA]);
    expect((await ids('  50 ')).sort(), 'q is trimmed').toEqual([percentOfA, spaceOfA, anyOfA].sort());
  });

  it('ranks the exact name first, then names starting with q, then ids, then names containing q', async () => {
    await tenants.owner.query('INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4), ($1, $5, $3, $6)', [
      a.tenant_id,
      'da7a000000000001',
      hostOfA,
      'data',
      'da7a000000000002',
      'database-01',
    ]);
    try {
      expect(await ids('DATA')).toEqual(['da7a000000000001', 'da7a000000000002', backslashOfA, sqlOfA]);
      expect(await ids('da')).toEqual(['da7a000000000001', 'da7a000000000002', backslashOfA, sqlOfA]);
      const { body } = await search({ q: 'da', limit: '2' });
      expect(body.data.map((found) => found.id)).toEqual(['da7a000000000001', 'da7a000000000002']);
    } finally {
      await tenants.owner.query('DELETE FROM volumes WHERE tenant_id = $1 AND volume_id LIKE $2', [a.tenant_id, 'da7a%']);
    }
  });

  it("never returns another tenant's volumes or hosts, by name or id", async () => {
    for (const q of ['sql', 'prod-sql-data-b', 'abcd', sqlOfB, 'esx-07b', 'e5e5']) {
      expect({ q, leaks: (await ids(q)).filter((id) => id === sqlOfB || id === hostOfB) }).toEqual({ q, leaks: [] });
    }
    expect(await ids('prod-sql', b.api_key)).toEqual([sqlOfB]);
    expect(await ids('abcd', b.api_key)).toEqual([sqlOfB]);
  });

  it("finds nothing of B in A's transaction even when the query names B (row-level security)", async () => {
    const database = app.get(DatabaseService);
    const repository = app.get(SearchRepository);
    const asA = await database.withTenant(a.tenant_id, (db) => repository.search(db, b.tenant_id, searchTerms('sql'), 50));
    expect(asA).toEqual([]);
    const asB = await database.withTenant(b.tenant_id, (db) => repository.search(db, b.tenant_id, searchTerms('sql'), 50));
    expect(asB.map((row) => row.id)).toEqual([sqlOfB]);
  });

  it('answers 400 with the error body for an empty, blank, missing, too long or control-character q and a bad limit', async () => {
    for (const query of <Record<string, string>[]>[{ q: '' }, { q: '   ' }, {}, { q: 'x'.repeat(101) }, { q: 'a\u0000b' }, { q: 'sql', limit: '51' }, { q: 'sql', limit: '0' }]) {
      const { status, body, requestId } = await search(query);
      expect({ query, status, body }).toEqual({
        query,
        status: 400,
        body: { code: 'bad_request', message: expect.any(String), request_id: requestId, doc_url: expect.stringMatching(/\/docs\/errors#bad_request$/) },
      });
    }
    expect((await search({ q: 'x'.repeat(100) })).status).toBe(200);
  });

  it('names the volume or host wherever a list shows one, null without a name', async () => {
    const get = async (path: string, apiKey = a.api_key) => {
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return (await response.json()) as { data: Record<string, unknown>[] } & Record<string, unknown>;
    };
    const admin = await tenants.createApiKey(a.tenant_id, 'read-write');
    const owner = tenants.owner;
    await owner.query('INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation) SELECT tenant_id, volume_id, 4096, $3, $4, 0.5, 0.6, 0.5, $5, $6 FROM volumes WHERE tenant_id = $1 AND volume_id = ANY($2)', [
      a.tenant_id,
      [sqlOfA, unnamedOfA],
      'nvme',
      'write-through',
      '{}',
      'test',
    ]);
    await owner.query('UPDATE agents SET host_id = $2 WHERE id = $1', [a.agent_id, hostOfA]);
    await owner.query(`INSERT INTO audit_log (tenant_id, actor_kind, actor_id, action, target_kind, target_id) VALUES ($1, 'api_key', $2, 'volume_policy.set', 'volume', $3), ($1, 'api_key', $2, 'volume_policy.set', 'volume', $4)`, [
      a.tenant_id,
      admin.id,
      sqlOfA,
      unnamedOfA,
    ]);

    const recommendations = await get('/v1/recommendations');
    expect(recommendations.data.map((r) => [r.volume_id, r.display_name]).sort()).toEqual([[sqlOfA, 'Prod-SQL-Data'], [unnamedOfA, null]].sort());
    expect(await get(`/v1/recommendations/${sqlOfA}`)).toMatchObject({ volume_id: sqlOfA, host_id: hostOfA, display_name: 'Prod-SQL-Data' });
    expect(await get(`/v1/recommendations/${unnamedOfA}`)).toMatchObject({ volume_id: unnamedOfA, display_name: null });
    const volumes = await get('/v1/volumes?limit=200');
    expect(volumes.data.find((v) => v.volume_id === sqlOfA)).toMatchObject({ display_name: 'Prod-SQL-Data', host_id: hostOfA, host_display_name: 'ESX-07' });
    expect(await get(`/v1/volumes/${unnamedOfA}`)).toMatchObject({ display_name: null, host_display_name: 'ESX-07' });
    expect((await get('/v1/agents')).data).toEqual([expect.objectContaining({ id: a.agent_id, host_id: hostOfA, host_display_name: 'ESX-07' })]);
    const audit = await get('/v1/audit-log?action=volume_policy.set', admin.key);
    expect(audit.data.map((e) => [e.target_id, e.target_display_name]).sort()).toEqual([[sqlOfA, 'Prod-SQL-Data'], [unnamedOfA, null]].sort());
    expect((await get('/v1/recommendations', b.api_key)).data.map((r) => r.volume_id), "B's list holds none of A's").toEqual([]);
  });

  it('refuses a call without a credential', async () => {
    expect((await fetch(`${url}/v1/search?q=sql`)).status).toBe(401);
  });
});
