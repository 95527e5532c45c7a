/**
 * Schema fuzzing: scripts/fuzz.sh (schemathesis) against the real api on loopback, with a
 * seeded tenant's key and without; every answer must be documented, match its schema and not
 * be a 5xx (so a 4xx carries {code, message, request_id}). The fuzzer's report is printed.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';
import { hexId, insertVolume } from './support/volume-rows.js';

describe('schema fuzzing of the api (schemathesis, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let apiKey: string;

  beforeAll(async () => {
    ({ app, url } = await startApi());
    const tenant = await tenants.create('fuzz');
    apiKey = tenant.api_key;
    await insertVolume(tenants.owner, tenant.tenant_id, { volumeId: hexId(), hostId: hexId(), io: { readOps: 10, writeOps: 5, hits: 3, misses: 1 }, wssBytes: 4096, tierBytes: 8192 });
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('answers every fuzzed request of every operation with a documented non-5xx answer', { timeout: 420_000 }, async () => {
    const script = fileURLToPath(new URL('../scripts/fuzz.sh', import.meta.url));
    const run = await promisify(execFile)(script, {
      env: { ...process.env, TIERWISE_API_URL: url, TIERWISE_FUZZ_API_KEY: apiKey },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { code: number; stdout: string; stderr: string }) => error);
    console.log(run.stdout, run.stderr);
    expect('code' in run ? run.code : 0).toBe(0);
    expect(run.stdout).toMatch(/Tested: \d+/);
  });
});
