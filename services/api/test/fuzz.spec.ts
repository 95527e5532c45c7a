/**
 * Schema fuzzing: scripts/fuzz.sh (schemathesis) against the real api on loopback, with a
 * seeded tenant's read-write key (so every route, changes included, is reached) and without;
 * every answer must be documented, match its schema and not be a 5xx (so a 4xx carries
 * {code, message, request_id, doc_url}). The fuzzer's report is printed. The rate limit is
 * lifted for the run (its 429 has a test of its own).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';

describe('schema fuzzing of the api (schemathesis, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let apiKey: string;
  const volumeId = hexId();

  beforeAll(async () => {
    process.env.TIERWISE_API_RATE_LIMIT_PER_MINUTE = '1000000';
    ({ app, url } = await startApi());
    const tenant = await tenants.create('fuzz');
    apiKey = (await tenants.createApiKey(tenant.tenant_id, 'read-write')).key;
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId, hostId: hexId(), io: { readOps: 10, writeOps: 5, hits: 3, misses: 1 }, wssBytes: 4096, tierBytes: 8192 });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('answers every fuzzed request of every operation with a documented non-5xx answer', { timeout: 420_000 }, async () => {
    const script = fileURLToPath(new URL('../scripts/fuzz.sh', import.meta.url));
    const run = await promisify(execFile)(script, {
      env: { ...process.env, TIERWISE_API_URL: url, TIERWISE_FUZZ_API_KEY: apiKey, TIERWISE_FUZZ_VOLUME_ID: volumeId },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    console.log(run.stdout, run.stderr);
    expect('code' in run ? run.code : 0).toBe(0);
    expect(run.stdout).toMatch(/Tested: \d+/);
  });
});
