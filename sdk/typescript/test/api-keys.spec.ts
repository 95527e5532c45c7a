import { AuthenticationError, PermissionDeniedError } from '@tierwise/sdk';
import { describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';

describe('SDK: API keys (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-keys');
  it('creates a key shown once and stored only as its SHA-256; the list never shows a secret', async () => {
    const created = await live.admin.apiKeys.create({ name: 'ci', scope: 'read' });
    expect(created).toMatchObject({ name: 'ci', scope: 'read', key: expect.stringMatching(/^twk_[\w-]{43}$/), key_prefix: created.key.slice(0, 12), revoked_at: null, last_used_at: null });
    expect(created.created_by).toEqual({ kind: 'api_key', id: live.world.adminKeyId });
    const { rows } = await live.world.tenants.owner.query(`SELECT key_sha256 = encode(sha256(convert_to($2, 'UTF8')), 'hex') AS hashed FROM api_keys WHERE id = $1`, [created.id, created.key]);
    expect(rows).toEqual([{ hashed: true }]);
    const listed = JSON.stringify(await live.admin.apiKeys.list({ status: 'all' }));
    expect(listed).toContain(created.id);
    expect(listed).not.toContain(created.key);
  });

  it('records last use, and refuses a key once revoked', async () => {
    const created = await live.admin.apiKeys.create({ name: 'short-lived', scope: 'read' });
    const client = live.client(created.key);
    await client.fleet.summary();
    const used = (await live.admin.apiKeys.list()).data.find((key) => key.id === created.id);
    expect(used?.last_used_at).toEqual(expect.any(String));
    expect(await live.admin.apiKeys.revoke(created.id)).toMatchObject({ id: created.id, revoked_at: expect.any(String) });
    await expect(client.fleet.summary()).rejects.toBeInstanceOf(AuthenticationError);
    expect((await live.admin.apiKeys.list()).data.map((key) => key.id)).not.toContain(created.id);
    expect((await live.admin.apiKeys.list({ status: 'revoked' })).data.map((key) => key.id)).toContain(created.id);
  });

  it('pages through the keys with the iterator', async () => {
    const ids: string[] = [];
    for await (const key of live.admin.apiKeys.iterate({ status: 'all', limit: 1 })) {
      ids.push(key.id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(4);
  });

  it('lets only a read-write key manage keys', async () => {
    const reader = live.client(live.world.readKey);
    await expect(reader.apiKeys.create({ name: 'escalate', scope: 'read-write' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(reader.apiKeys.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
