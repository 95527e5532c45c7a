import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../app.module.js';
import { apiKeyPrincipal } from '../identity/principal.js';
import { FleetService } from './fleet.service.js';

describe('FleetService (real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await createServiceApp(AppModule, { logLevels: ['fatal', 'error'] });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it("sums the tenant's volumes only", async () => {
    const [mine, theirs] = [await tenants.create('fleet-mine'), await tenants.create('fleet-theirs')];
    const host = hexId();
    await insertVolume(tenants.owner, mine.tenant_id, { volumeId: hexId(), hostId: host, io: { readOps: 100, writeOps: 10, hits: 30, misses: 10 }, wssBytes: 4096, mrcCacheBytes: 8192 });
    await insertVolume(tenants.owner, mine.tenant_id, { volumeId: hexId(), hostId: host, io: { readOps: 50, writeOps: 40, hits: 10, misses: 30 } });
    await insertVolume(tenants.owner, theirs.tenant_id, { volumeId: hexId(), hostId: hexId(), io: { readOps: 7, writeOps: 7, hits: 7, misses: 7 }, wssBytes: 8192 });

    const summary = await app.get(FleetService).summary(apiKeyPrincipal({ id: randomUUID(), tenantId: mine.tenant_id, scope: 'read' }));
    expect(summary).toEqual({
      volumes: 2,
      hosts: 1,
      read_ops: 150,
      write_ops: 50,
      read_bytes: 150 * 4096,
      write_bytes: 50 * 8192,
      cache_hits: 40,
      cache_misses: 40,
      hit_ratio: 0.5,
      wss_bytes: 4096,
      working_set_volumes: 1,
      sampled_references: 52000,
      mrc_volumes: 1,
    });
  });
});
