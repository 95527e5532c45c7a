/**
 * A tenant with a host, two volumes (one with a recommendation and interval metrics) and its
 * read and read-write API keys, plus a second tenant whose data must never show, arranged as
 * tierwise_owner on the test profile's PostgreSQL.
 */
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';

export interface World {
  tenants: TestTenants;
  tenantId: string;
  readKey: string;
  adminKey: string;
  adminKeyId: string;
  hostId: string;
  /**
   * A volume with a 64 GiB NVMe write-through recommendation for SIEVE, 3 interval points and a
   * miss ratio curve with LRU's and SIEVE's.
   */
  recommendedVolume: string;
  /** A volume without recommendation. */
  plainVolume: string;
  /** Interval starts of recommendedVolume's metrics, oldest first. */
  intervalStarts: string[];
  /** A volume of the other tenant. */
  otherVolume: string;
}

export const GiB = 1024 ** 3;

export async function createWorld(name: string): Promise<World> {
  const tenants = new TestTenants();
  const tenant = await tenants.create(name);
  const other = await tenants.create(`${name}-other`);
  const admin = await tenants.createApiKey(tenant.tenant_id, 'read-write', 'sdk tests');
  const hostId = hexId();
  const base = Date.now() - 3_600_000;
  const intervalStarts = [0, 10, 20].map((seconds) => new Date(base + seconds * 1000).toISOString());
  const world: World = {
    tenants,
    tenantId: tenant.tenant_id,
    readKey: tenant.api_key,
    adminKey: admin.key,
    adminKeyId: admin.id,
    hostId,
    recommendedVolume: hexId(),
    plainVolume: hexId(),
    intervalStarts,
    otherVolume: hexId(),
  };
  await insertVolume(tenants.owner, tenant.tenant_id, {
    volumeId: world.recommendedVolume,
    hostId,
    displayName: 'db-data',
    io: { readOps: 900, writeOps: 100, hits: 600, misses: 200 },
    wssBytes: 40 * GiB,
    tierBytes: 64 * GiB,
    prediction: { window: '24h', replicas: 0, offloadedIops: 1250.5, offloadedBytesPerSecond: 5 * 1024 ** 2, predictedLatencyUs: 180.5, datastoreLatencyUs: 950 },
    eviction: 'sieve',
    mrcCacheBytes: 64 * GiB,
    evictionCurves: { sieve: 0.12, lru: 0.14 },
    intervals: intervalStarts.map((start, index) => ({ start, readOps: 100 * (index + 1), writeOps: 10, hits: 75, misses: 25 })),
  });
  await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: world.plainVolume, hostId, io: { readOps: 5, writeOps: 5, hits: 1, misses: 1 } });
  await insertVolume(tenants.owner, other.tenant_id, { volumeId: world.otherVolume, hostId: hexId(), tierBytes: 8 * GiB });
  return world;
}
