import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { ProvisionedTenant } from '@tierwise/common';
import { TestTenants } from '@tierwise/common/testing';
import { ATTR, ExportMetricsServiceRequest, ExportMetricsServiceResponse, KAFKA_TOPICS, ReferenceBatch, ReferenceBatches } from '@tierwise/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngest } from './support/ingest-app.js';
import { INVALID_METRICS_CASES, invalidMetricsBatch } from './support/invalid-metrics.js';
import { KafkaTap } from './support/kafka-tap.js';
import { metricsRequest, referenceBatch, testVolume } from './support/telemetry-fixtures.js';

describe('ingest over HTTP (real PostgreSQL and Kafka)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let metricsTap: KafkaTap;
  let refsTap: KafkaTap;
  let tenant: ProvisionedTenant;

  function post(path: string, body: Uint8Array | string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${url}${path}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', ...headers },
    });
  }

  function postMetrics(body: Uint8Array | string, batchId = randomUUID(), headers: Record<string, string> = {}): Promise<Response> {
    return post('/v1/metrics', body, { 'x-tierwise-batch-id': batchId, ...headers });
  }

  beforeAll(async () => {
    ({ app, url } = await startIngest());
    [metricsTap, refsTap] = await Promise.all([KafkaTap.open(KAFKA_TOPICS.metrics), KafkaTap.open(KAFKA_TOPICS.refs)]);
    tenant = await tenants.create('ingest-http');
  });

  afterAll(async () => {
    await Promise.all([metricsTap.close(), refsTap.close()]);
    await app.close();
    await tenants.cleanUp();
  });

  it('accepts OTLP metrics and publishes one record per volume, stamped with the token tenant', async () => {
    const volumes = [testVolume({ clusterId: 'c0ffee0123456789' }), testVolume({ source: 'vscsistats' })];
    const batchId = randomUUID();
    const response = await postMetrics(metricsRequest(volumes), batchId);
    // The inventory: each volume on its host, in its cluster (or none), measured or imported.
    const { rows } = await tenants.owner.query<{ volume_id: string; host_id: string; cluster_id: string | null; source: string }>(
      'SELECT volume_id, host_id, cluster_id, source FROM volumes WHERE tenant_id = $1 AND volume_id = ANY($2) ORDER BY cluster_id NULLS LAST',
      [tenant.tenant_id, volumes.map((v) => v.volumeId)],
    );
    expect(rows).toEqual(volumes.map((v) => ({ volume_id: v.volumeId, host_id: v.hostId, cluster_id: v.clusterId ?? null, source: v.source ?? 'agent' })));

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-protobuf');
    expect(ExportMetricsServiceResponse.decode(new Uint8Array(await response.arrayBuffer()))).toEqual({ partialSuccess: null });
    const published = await metricsTap.drain();
    expect(published.map((r) => r.key).sort()).toEqual(volumes.map((v) => `${tenant.tenant_id}/${v.volumeId}`).sort());
    for (const { key, record } of published) {
      const payload = ExportMetricsServiceRequest.decode(record.payload);
      const volumeId = payload.resourceMetrics[0].resource?.attributes.find((a) => a.key === ATTR.volumeId)?.value?.stringValue;
      const n = volumes.findIndex((v) => v.volumeId === volumeId);
      expect(payload.resourceMetrics).toHaveLength(1);
      expect(key).toBe(`${tenant.tenant_id}/${volumeId}`);
      expect(record).toMatchObject({ tenantId: tenant.tenant_id, agentId: tenant.agent_id, batchId: `${batchId}#${n}` });
      expect(Number(BigInt(Date.now()) * 1_000_000n - record.receivedUnixNano) / 1e9).toBeLessThan(30);
    }
  });

  it('answers 401 with the reason for a wrong or missing token and publishes nothing', async () => {
    const wrong = await postMetrics(metricsRequest([testVolume()]), randomUUID(), { authorization: 'Bearer twa_not-a-real-token' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/^agent credential is unknown/) });

    const missing = await fetch(`${url}/v1/refs`, { method: 'POST', body: referenceBatch(testVolume()), headers: { 'content-type': 'application/x-protobuf' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ code: 'unauthorized', message: 'missing Authorization: Bearer <agent credential>' });

    expect(await metricsTap.drain()).toEqual([]);
    expect(await refsTap.drain()).toEqual([]);
  });

  it("answers 401 agent_revoked to a revoked agent's batches as soon as the revocation is notified, though its credential was accepted just before, and publishes nothing after", async () => {
    const other = await tenants.create('ingest-revoked');
    const auth = { authorization: `Bearer ${other.agent_token}` };
    // Ingest remembers a credential it found live only while it LISTENs for revocations (AgentCredentialCache).
    await expect.poll(async () => (await tenants.owner.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'tierwise-credential-listen'")).rows[0].n).toBe(1);
    const accepted = await postMetrics(metricsRequest([testVolume()]), randomUUID(), auth);
    expect(accepted.status).toBe(200);
    await metricsTap.drain();

    await tenants.owner.query('UPDATE agents SET revoked_at = now() WHERE id = $1', [other.agent_id]);
    // PostgreSQL signals the listening session at the revoking commit, and that session sends the
    // notification when it runs: a batch that reaches ingest before it is still accepted (under
    // load, milliseconds). From the first refusal on, every batch is refused.
    const revokedAt = Date.now();
    let refused: Response;
    do {
      refused = await postMetrics(metricsRequest([testVolume()]), randomUUID(), auth);
    } while (refused.status === 200 && Date.now() - revokedAt < 2000);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'agent_revoked', message: expect.stringMatching(new RegExp(`^agent ${other.agent_id} was revoked at `)) });
    await metricsTap.drain(); // what was accepted before the notification arrived
    const volume = testVolume();
    expect((await postMetrics(metricsRequest([volume]), randomUUID(), auth)).status).toBe(401);
    const refs = await post('/v1/refs', referenceBatch(volume), auth);
    expect(refs.status).toBe(401);
    expect(await metricsTap.drain()).toEqual([]);
    expect(await refsTap.drain()).toEqual([]);
    const written = await tenants.owner.query('SELECT count(*)::int AS n FROM volumes WHERE tenant_id = $1 AND volume_id = $2', [other.tenant_id, volume.volumeId]);
    expect(written.rows).toEqual([{ n: 0 }]);
  });

  it('answers 400 with the decoder reason for a body that is not protobuf, and the next good batch goes through', async () => {
    const bad = await postMetrics('{"resourceMetrics": []}');
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { code: string; message: string; request_id: string };
    expect(body.code).toBe('invalid_body');
    expect(body.message).toMatch(/^body is not a valid ExportMetricsServiceRequest: .+/);
    expect(body.request_id).toBe(bad.headers.get('x-request-id'));

    const volume = testVolume();
    expect((await postMetrics(metricsRequest([volume]))).status).toBe(200);
    expect((await metricsTap.drain()).map((r) => r.key)).toEqual([`${tenant.tenant_id}/${volume.volumeId}`]);
  });

  it("answers 400 with the reason to every batch the metrics job would reject, and publishes none of it", async () => {
    const end = BigInt(Date.now()) * 1_000_000n;
    for (const { name, set, reason } of INVALID_METRICS_CASES) {
      const response = await postMetrics(ExportMetricsServiceRequest.encode(invalidMetricsBatch(set, end)));
      expect(response.status, name).toBe(400);
      expect(((await response.json()) as { message: string }).message, name).toContain(reason);
    }
    expect(await metricsTap.drain()).toEqual([]);
    expect((await postMetrics(ExportMetricsServiceRequest.encode(invalidMetricsBatch({}, end)))).status).toBe(200);
    expect(await metricsTap.drain()).toHaveLength(1);
  });

  it('answers 200 to every send of a batch id, concurrent or later, and publishes each under that id: the jobs drop the resends', async () => {
    const batchId = randomUUID();
    const body = metricsRequest([testVolume()]);
    const concurrent = await Promise.all([1, 2, 3].map(() => postMetrics(body, batchId)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await postMetrics(body, batchId)).status).toBe(200);
    expect((await metricsTap.drain()).map((r) => r.record.batchId)).toEqual(Array(4).fill(`${batchId}#0`));
  });

  it('accepts a reference batch (also gzip-encoded) and publishes it unchanged as one record', async () => {
    const volume = testVolume();
    const batchId = randomUUID();
    const body = referenceBatch(volume, 500, batchId);
    const response = await post('/v1/refs', body);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ batch_id: batchId, records: 1 });
    const [published, ...rest] = await refsTap.drain();
    expect(rest).toEqual([]);
    expect(published.key).toBe(`${tenant.tenant_id}/${volume.volumeId}`);
    expect(published.record).toMatchObject({ tenantId: tenant.tenant_id, agentId: tenant.agent_id, batchId });
    expect(Buffer.from(published.record.payload).equals(Buffer.from(body))).toBe(true);
    expect(ReferenceBatch.decode(published.record.payload).references).toHaveLength(500);

    const gzipped = referenceBatch(volume, 10);
    expect((await post('/v1/refs', gzipSync(gzipped), { 'content-encoding': 'gzip' })).status).toBe(200);
    const [inflated] = await refsTap.drain();
    expect(Buffer.from(inflated.record.payload).equals(Buffer.from(gzipped))).toBe(true);
  });

  it('accepts a host\'s reference batches in one request and publishes each batch\'s bytes as one record', async () => {
    const volumes = [testVolume(), testVolume()];
    const batchIds = [randomUUID(), randomUUID()];
    const bodies = volumes.map((volume, i) => referenceBatch(volume, 20 + i, batchIds[i]));
    const response = await post('/v1/refs/batches', ReferenceBatches.encode({ batches: bodies.map((b) => ReferenceBatch.decode(b)) }));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ batches: 2 });
    // One record per batch, keyed by its volume (the volumes' partitions may differ: no order across them).
    const published = await refsTap.drain();
    expect(published).toHaveLength(2);
    volumes.forEach((volume, i) => {
      const r = published.find((p) => p.record.batchId === batchIds[i]);
      expect(r?.key).toBe(`${tenant.tenant_id}/${volume.volumeId}`);
      expect(r?.record).toMatchObject({ tenantId: tenant.tenant_id, agentId: tenant.agent_id });
      expect(Buffer.from(r!.record.payload).equals(Buffer.from(bodies[i]))).toBe(true);
    });
    const { rows } = await tenants.owner.query<{ volume_id: string }>(
      'SELECT volume_id FROM volumes WHERE tenant_id = $1 AND volume_id = ANY($2)', [tenant.tenant_id, volumes.map((v) => v.volumeId)]);
    expect(rows).toHaveLength(2);
  });

  it('refuses a reference batches request whole when one batch is invalid, naming it (400, nothing published)', async () => {
    const good = ReferenceBatch.decode(referenceBatch(testVolume(), 5));
    const bad = { ...ReferenceBatch.decode(referenceBatch(testVolume(), 5)), samplingThreshold: 0n };
    const response = await post('/v1/refs/batches', ReferenceBatches.encode({ batches: [good, bad] }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'invalid_body', message: 'batches[1]: sampling_threshold must be in 1..sampling_modulus (16777216), got 0',
    });
    const empty = await post('/v1/refs/batches', new Uint8Array(0));
    expect(await empty.json()).toMatchObject({ code: 'invalid_body', message: 'ReferenceBatches holds no batch' });
    expect(await refsTap.drain()).toEqual([]);
  });

  it('publishes a reference batch larger than Kafka\'s default 1 MiB message (65,536 references, one record)', async () => {
    // One request's records go out in one produce call, and a partition's share of them must fit
    // the broker's message.max.bytes (10 MiB: infra/local/kafka.sh, docs/deployment.md "Kafka").
    const body = referenceBatch(testVolume(), 65_536);
    expect(body.byteLength).toBeGreaterThan(1024 * 1024);
    expect((await post('/v1/refs', body)).status).toBe(200);
    const [published, ...rest] = await refsTap.drain();
    expect(rest).toEqual([]);
    expect(ReferenceBatch.decode(published.record.payload).references).toHaveLength(65_536);
  });

  it('refuses a body over 8 MiB (413), a non-protobuf content type (415) and a missing batch id (400)', async () => {
    const huge = await postMetrics(new Uint8Array(8 * 1024 * 1024 + 1));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'payload_too_large' });

    const json = await postMetrics('{}', randomUUID(), { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ message: 'Content-Type must be application/x-protobuf, got application/json' });

    const noBatchId = await post('/v1/metrics', metricsRequest([testVolume()]));
    expect(noBatchId.status).toBe(400);
    expect(await noBatchId.json()).toMatchObject({ code: 'invalid_body', message: 'header X-Tierwise-Batch-Id is missing' });
    expect(await metricsTap.drain()).toEqual([]);
  });

  it('answers GET /healthz', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
