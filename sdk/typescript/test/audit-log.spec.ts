import { PermissionDeniedError, Tierwise } from '@tierwise/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { liveSuite } from './support/live-suite.js';
import { GiB, type World } from './support/world.js';

describe('SDK: audit log (real api process, real PostgreSQL)', () => {
  const live = liveSuite('sdk-audit');
  let world: World;
  let admin: Tierwise;

  beforeAll(() => {
    world = live.world;
    admin = live.client(world.adminKey, 'audit-test/1.0');
  });

  it('records every change with who, what, before/after, when and from where, newest first', async () => {
    const key = await admin.apiKeys.create({ name: 'audited', scope: 'read' });
    await admin.volumes.setPolicy(world.plainVolume, { mode: 'write-through', tier_bytes: 4 * GiB, media: 'ram' });
    await admin.recommendations.apply(world.recommendedVolume);
    await admin.apiKeys.revoke(key.id);

    const entries = (await admin.auditLog.list()).data;
    expect(entries.map((entry) => [entry.action, entry.target_id])).toEqual([
      ['api_key.revoke', key.id],
      ['recommendation.apply', world.recommendedVolume],
      ['volume_policy.set', world.recommendedVolume],
      ['volume_policy.set', world.plainVolume],
      ['api_key.create', key.id],
    ]);
    for (const entry of entries) {
      expect(entry).toMatchObject({ actor: { kind: 'api_key', id: world.adminKeyId }, ip: '127.0.0.1', user_agent: 'audit-test/1.0', at: expect.any(String) });
    }
    expect(entries[0]).toMatchObject({ before: { name: 'audited', revoked_at: null }, after: { name: 'audited', revoked_at: expect.any(String) } });
    expect(entries[3]).toMatchObject({ before: null, after: { version: 1, mode: 'write-through', tier_bytes: 4 * GiB, media: 'ram' } });
    expect(JSON.stringify(entries)).not.toContain(key.key);
  });

  it('filters and pages', async () => {
    expect((await admin.auditLog.list({ action: 'volume_policy.set', target_id: world.plainVolume })).data).toHaveLength(1);
    const actions: string[] = [];
    for await (const entry of admin.auditLog.iterate({ limit: 2 })) {
      actions.push(entry.action);
    }
    expect(actions).toHaveLength(5);
  });

  it('is for admins: a read key is refused', async () => {
    await expect(live.client(world.readKey).auditLog.list()).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('writes no entry for a refused change (a volume of another tenant)', async () => {
    const before = (await admin.auditLog.list()).data.length;
    await expect(admin.volumes.setPolicy(world.otherVolume, { mode: 'write-through', tier_bytes: 4 * GiB, media: 'ram' })).rejects.toThrow();
    expect((await admin.auditLog.list()).data.length).toBe(before);
  });
});
