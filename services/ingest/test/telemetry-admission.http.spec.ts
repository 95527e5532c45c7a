/**
 * The front door of telemetry requests on the real PostgreSQL and Kafka (issue 16 finding 2):
 * authentication before admission, the global and per-agent bounds, and the body deadline. The
 * attackers here trickle their bodies, as a slow-body (slowloris) attack does.
 */
import { randomUUID } from 'node:crypto';
import { type ClientRequest, request as httpRequest } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { TestTenants } from '@tierwise/common/testing';
import { KAFKA_TOPICS } from '@tierwise/proto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AdmissionLimits, DEFAULT_ADMISSION_LIMITS } from '../src/telemetry/telemetry-admission.js';
import { startIngest } from './support/ingest-app.js';
import { KafkaTap } from './support/kafka-tap.js';
import { metricsRequest, testVolume } from './support/telemetry-fixtures.js';

/** A telemetry request whose body never finishes arriving; `status` settles with the answer's status, or 'closed'. */
interface SlowRequest {
  request: ClientRequest;
  status: Promise<number | 'closed'>;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ingest telemetry admission (real PostgreSQL and Kafka)', () => {
  const tenants = new TestTenants();
  let tap: KafkaTap;
  let victim: ProvisionedTenant;
  let attacker: ProvisionedTenant;
  let others: ProvisionedTenant[];
  let ingest: { app: NestExpressApplication; url: string } | undefined;
  let slow: SlowRequest[] = [];

  beforeAll(async () => {
    tap = await KafkaTap.open(KAFKA_TOPICS.metrics);
    victim = await tenants.create('ingest-admission-victim');
    attacker = await tenants.create('ingest-admission-attacker');
    others = [await tenants.create('ingest-admission-a'), await tenants.create('ingest-admission-b')];
  });

  afterEach(async () => {
    for (const s of slow) s.request.destroy();
    slow = [];
    await ingest?.app.close();
    ingest = undefined;
  });

  afterAll(async () => {
    await tap.close();
    await tenants.cleanUp();
  });

  async function start(limits: Partial<AdmissionLimits> = {}): Promise<string> {
    ingest = await startIngest({ ...DEFAULT_ADMISSION_LIMITS, ...limits });
    return ingest.url;
  }

  function postMetrics(url: string, token: string, batchId = randomUUID()): Promise<Response> {
    return fetch(`${url}/v1/metrics`, {
      method: 'POST',
      body: metricsRequest([testVolume()]),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-protobuf', 'x-tierwise-batch-id': batchId },
    });
  }

  /** Sends the headers of a `bytes` long batch (default 1 MB) and 10 bytes of its body, then nothing more. */
  function openSlow(url: string, authorization: string | undefined, bytes = 1_000_000): SlowRequest {
    const headers: Record<string, string> = { 'content-type': 'application/x-protobuf', 'content-length': String(bytes), 'x-tierwise-batch-id': randomUUID() };
    if (authorization) headers.authorization = authorization;
    const request = httpRequest(`${url}/v1/metrics`, { method: 'POST', headers });
    const status = new Promise<number | 'closed'>((resolve) => {
      request.on('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', () => resolve('closed'));
      request.on('close', () => resolve('closed'));
    });
    request.write(Buffer.alloc(10));
    const opened = { request, status };
    slow.push(opened);
    return opened;
  }

  it('answers anonymous slow clients 401 before their bodies, while a real agent keeps getting 200', async () => {
    const url = await start();
    const attack = Array.from({ length: 70 }, (_, i) => openSlow(url, i % 2 ? 'Bearer twa_garbage' : undefined));
    const statuses = await Promise.all(attack.map((a) => a.status));
    expect(statuses).toEqual(Array(70).fill(401));

    await tap.drain();
    for (let i = 0; i < 3; i++) {
      // The attack goes on: new slow connections keep arriving between the agent's batches.
      attack.push(openSlow(url, 'Bearer twa_garbage'));
      expect((await postMetrics(url, victim.agent_token)).status).toBe(200);
    }
    expect(await tap.drain()).toHaveLength(3);
  });

  it('bounds the open requests of one agent credential, so one agent cannot take the slots of the others', async () => {
    const url = await start({ open: 6, openPerAgent: 2 });
    const attack = Array.from({ length: 4 }, () => openSlow(url, `Bearer ${attacker.agent_token}`));
    const outcomes = await Promise.all(attack.map((a) => Promise.race([a.status, settle(2000).then(() => 'open')])));
    expect(outcomes.sort()).toEqual([503, 503, 'open', 'open']);

    const answer = await postMetrics(url, victim.agent_token);
    expect(answer.status).toBe(200);
  });

  it('answers 503 with Retry-After at the global bound, loses nothing, and takes batches again when requests close', async () => {
    const url = await start({ open: 3, openPerAgent: 2 });
    openSlow(url, `Bearer ${others[0].agent_token}`);
    openSlow(url, `Bearer ${others[0].agent_token}`);
    openSlow(url, `Bearer ${others[1].agent_token}`);
    await settle(300);
    await tap.drain();

    const refusedId = randomUUID();
    const refused = await postMetrics(url, victim.agent_token, refusedId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      code: 'unavailable',
      message: 'ingest is at capacity (3 telemetry requests are open), retry later',
      request_id: refused.headers.get('x-request-id'),
    });
    expect(await tap.drain()).toEqual([]);

    for (const s of slow) s.request.destroy();
    await settle(300);

    // The agent's retry of the refused batch is accepted and published once.
    const retried = await postMetrics(url, victim.agent_token, refusedId);
    expect(retried.status).toBe(200);
    const published = await tap.drain();
    expect(published).toHaveLength(1);
    expect(published[0].record.batchId).toBe(`${refusedId}#0`);
  });

  it('drops a body that arrives slower than the minimum rate and frees its slot', async () => {
    const url = await start({ open: 1, openPerAgent: 1, bodyGraceMs: 500 });
    const trickle = openSlow(url, `Bearer ${attacker.agent_token}`, 10_000);
    // 500 ms of grace plus 10 kB at 64 KiB/s: about 650 ms; the connection is cut then.
    const outcome = await Promise.race([trickle.status, settle(5_000).then(() => 'still open')]);
    expect(outcome).toBe('closed');
    expect((await postMetrics(url, victim.agent_token)).status).toBe(200);
  });
});
