import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { TestTenants } from '@tierwise/common/testing';
import { KAFKA_TOPICS } from '@tierwise/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from './support/ingest-app.js';
import { KafkaTap } from './support/kafka-tap.js';
import { metricsRequest, testVolume } from './support/telemetry-fixtures.js';

const OPEN_LIMIT = 3;

describe('ingest load shedding (real PostgreSQL and Kafka)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let tap: KafkaTap;
  let tenant: ProvisionedTenant;

  beforeAll(async () => {
    ({ app, url } = await startIngest(OPEN_LIMIT));
    tap = await KafkaTap.open(KAFKA_TOPICS.metrics);
    tenant = await tenants.create('ingest-admission');
  });

  afterAll(async () => {
    await tap.close();
    await app.close();
    await tenants.cleanUp();
  });

  function postMetrics(batchId: string): Promise<Response> {
    return fetch(`${url}/v1/metrics`, {
      method: 'POST',
      body: metricsRequest([testVolume()]),
      headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', 'x-tierwise-batch-id': batchId },
    });
  }

  /** A telemetry request whose body never finishes arriving (a slow agent): it stays open. */
  function openSlowRequest(): ClientRequest {
    const slow = httpRequest(`${url}/v1/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', 'content-length': '1000', 'x-tierwise-batch-id': randomUUID() },
    });
    slow.on('error', () => {});
    slow.write(Buffer.alloc(10));
    return slow;
  }

  it('answers 503 with Retry-After at once beyond the open-request bound, loses nothing, and takes batches again when requests close', async () => {
    const slow = Array.from({ length: OPEN_LIMIT }, openSlowRequest);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const refusedId = randomUUID();
    const refused = await postMetrics(refusedId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'unavailable',
      message: `ingest is at capacity (${OPEN_LIMIT} telemetry requests are open), retry later`,
      request_id: refused.headers.get('x-request-id'),
    });
    expect(await tap.drain()).toEqual([]);

    for (const request of slow) request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));

    // The agent's retry of the refused batch is accepted and published once.
    const retried = await postMetrics(refusedId);
    expect(retried.status).toBe(200);
    const published = await tap.drain();
    expect(published).toHaveLength(1);
    expect(published[0].record.batchId).toBe(`${refusedId}#0`);
  });
});
