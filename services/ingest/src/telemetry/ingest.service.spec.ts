import { randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type Server, type Socket } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type AgentPrincipal, ApiError, DatabaseService, KAFKA_SECURITY_ENV, loadEnv, type ProvisionedTenant } from '@tierwise/common';
import { TestTenants } from '@tierwise/common/testing';
import { KAFKA_TOPICS } from '@tierwise/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_IN_FLIGHT_BATCHES } from '../ingest.constants.js';
import { startIngest } from '../../test/support/ingest-app.js';
import { KafkaTap } from '../../test/support/kafka-tap.js';
import { metricsRequest, referenceBatch, testVolume } from '../../test/support/telemetry-fixtures.js';
import { InventoryRepository } from './inventory.repository.js';
import { TelemetryPublisher } from './telemetry-publisher.js';
import { IngestService } from './ingest.service.js';

/** The telemetry publisher of ingest, publishing to `brokers` (host:port) in plaintext. */
function telemetryAt(brokers: string): TelemetryPublisher {
  return new TelemetryPublisher(loadEnv(['TIERWISE_KAFKA_BROKERS', ...KAFKA_SECURITY_ENV], { TIERWISE_KAFKA_BROKERS: brokers }));
}

describe('IngestService (real PostgreSQL and Kafka)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let ingest: IngestService;
  let tap: KafkaTap;
  let tenant: ProvisionedTenant;
  let agent: AgentPrincipal;

  beforeAll(async () => {
    ({ app } = await startIngest());
    ingest = app.get(IngestService);
    tap = await KafkaTap.open(KAFKA_TOPICS.metrics);
    tenant = await tenants.create('ingest-service');
    agent = { tenantId: tenant.tenant_id, agentId: tenant.agent_id };
  });

  afterAll(async () => {
    await tap.close();
    await app.close();
    await tenants.cleanUp();
  });

  it('records hosts and volumes, and keeps a name that a later batch does not carry', async () => {
    const named = testVolume({ hostName: 'esx-07.example.com', volumeName: 'sql-data' });
    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([named])));
    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([{ hostId: named.hostId, volumeId: named.volumeId }])));

    const { rows: hosts } = await tenants.owner.query('SELECT host_id, agent_id, display_name FROM hosts WHERE tenant_id = $1', [tenant.tenant_id]);
    expect(hosts).toEqual([{ host_id: named.hostId, agent_id: tenant.agent_id, display_name: 'esx-07.example.com' }]);
    const { rows: volumes } = await tenants.owner.query('SELECT volume_id, host_id, display_name FROM volumes WHERE tenant_id = $1', [tenant.tenant_id]);
    expect(volumes).toEqual([{ volume_id: named.volumeId, host_id: named.hostId, display_name: 'sql-data' }]);
    expect(await tap.drain()).toHaveLength(2);
  });

  it('answers 503 with Retry-After when Kafka is down and keeps nothing, and publishes the retry of the same batch', async () => {
    const brokerDown = new IngestService(app.get(DatabaseService), app.get(InventoryRepository), telemetryAt('127.0.0.1:1'));
    const volume = testVolume();
    const batchId = randomUUID();
    const body = Buffer.from(metricsRequest([volume]));

    const failure = await brokerDown.ingestMetrics(agent, batchId, body).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'unavailable', retryAfterSeconds: 5 });
    expect((await tap.drain()).map((r) => r.record.batchId)).not.toContain(`${batchId}#0`);
    const before = await tenants.owner.query('SELECT count(*)::int AS n FROM volumes WHERE volume_id = $1', [volume.volumeId]);
    expect(before.rows).toEqual([{ n: 0 }]);

    await expect(ingest.ingestMetrics(agent, batchId, body)).resolves.toEqual({ batchId, records: 1 });
    expect((await tap.drain()).map((r) => r.record.batchId)).toEqual([`${batchId}#0`]);
    const after = await tenants.owner.query('SELECT count(*)::int AS n FROM volumes WHERE volume_id = $1', [volume.volumeId]);
    expect(after.rows).toEqual([{ n: 1 }]);
  });

  it('writes an unchanged inventory once a minute, and a change at once', async () => {
    const volume = testVolume();
    const lastSeen = async () => (await tenants.owner.query<{ last_seen: Date; cluster_id: string | null }>(
      'SELECT last_seen, cluster_id FROM volumes WHERE volume_id = $1', [volume.volumeId])).rows[0];
    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([volume])));
    const first = await lastSeen();
    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([volume])));
    expect(await lastSeen()).toEqual(first);
    await ingest.ingestReferences(agent, Buffer.from(referenceBatch(volume)));
    expect(await lastSeen(), "a reference batch's sighting is within the metrics batch's").toEqual(first);

    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([{ ...volume, clusterId: 'c0ffee0123456789' }])));
    const moved = await lastSeen();
    expect(moved.cluster_id).toBe('c0ffee0123456789');
    expect(moved.last_seen.getTime()).toBeGreaterThan(first.last_seen.getTime());
    await tap.drain();
  });

  it('writes a sighting once while batches carrying it come together, and again after a failed write', async () => {
    const named = testVolume({ hostName: 'esx-09.example.com' });
    const inventory = app.get(InventoryRepository);
    const record = vi.spyOn(inventory, 'record');
    try {
      // An agent draining its spool: batches of one volume in flight together, one upsert of its rows.
      await Promise.all(Array.from({ length: 6 }, () => ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([named])))));
      await ingest.ingestReferences(agent, Buffer.from(referenceBatch(named)));
      expect(record).toHaveBeenCalledTimes(1);
      const { rows } = await tenants.owner.query('SELECT display_name FROM hosts WHERE host_id = $1', [named.hostId]);
      expect(rows).toEqual([{ display_name: 'esx-09.example.com' }]);

      // A write that fails leaves its sighting unwritten: the next batch writes it.
      const moved = { ...named, clusterId: 'c0ffee0123456789' };
      record.mockRejectedValueOnce(new Error('connection lost'));
      await expect(ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([moved])))).rejects.toThrow('connection lost');
      await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([moved])));
      expect(record).toHaveBeenCalledTimes(3);
      const volume = await tenants.owner.query('SELECT cluster_id FROM volumes WHERE volume_id = $1', [named.volumeId]);
      expect(volume.rows).toEqual([{ cluster_id: 'c0ffee0123456789' }]);
    } finally {
      record.mockRestore();
      await tap.drain();
    }
  });

  it('coalesces concurrent batches into fewer produce requests, and acknowledges each once it is published', async () => {
    const volume = testVolume();
    const key = `${tenant.tenant_id}/${volume.volumeId}`;
    await ingest.ingestMetrics(agent, randomUUID(), Buffer.from(metricsRequest([volume]))); // its inventory is written
    await tap.drain();
    // The Kafka client's own diagnostics: the records of this volume in each produce call.
    const perSend: number[] = [];
    const sendStarts = 'tracing:plt:kafka:producer:sends:start';
    const onSend = (message: unknown) => {
      const ours = (message as { options: { messages: { key?: Buffer }[] } }).options.messages.filter((m) => m.key?.toString() === key).length;
      if (ours > 0) perSend.push(ours);
    };
    subscribe(sendStarts, onSend);
    const batchIds = Array.from({ length: MAX_IN_FLIGHT_BATCHES - 5 }, () => randomUUID());
    try {
      const answers = await Promise.all(batchIds.map((batchId) => ingest.ingestMetrics(agent, batchId, Buffer.from(metricsRequest([volume])))));
      expect(answers).toEqual(batchIds.map((batchId) => ({ batchId, records: 1 })));
    } finally {
      unsubscribe(sendStarts, onSend);
    }
    expect(perSend.reduce((a, b) => a + b, 0)).toBe(batchIds.length);
    expect(perSend.length).toBeLessThan(batchIds.length / 2);
    const published = (await tap.drain()).map((r) => r.record.batchId);
    expect([...published].sort()).toEqual(batchIds.map((batchId) => `${batchId}#0`).sort());
  });

  it('pushes back when Kafka hangs: beyond the in-flight bound it answers 503 with Retry-After 1 at once', async () => {
    // A "broker" that accepts connections and never answers: every publish waits for Kafka.
    const sockets = new Set<Socket>();
    const blackHole: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as { port: number };
    const hung = new IngestService(
      app.get(DatabaseService),
      app.get(InventoryRepository),
      telemetryAt(`127.0.0.1:${port}`),
    );
    const extra = 5;
    const batchIds = Array.from({ length: MAX_IN_FLIGHT_BATCHES + extra }, () => randomUUID());
    const started = Date.now();
    interface Outcome {
      ok: boolean;
      code?: string;
      retryAfter?: number;
      after: number;
    }
    const outcomes = batchIds.map(
      (batchId): Promise<Outcome> =>
        hung.ingestMetrics(agent, batchId, Buffer.from(metricsRequest([testVolume()]))).then(
          () => ({ ok: true, after: Date.now() - started }),
          (error: ApiError) => ({ ok: false, code: error.code, retryAfter: error.retryAfterSeconds, after: Date.now() - started }),
        ),
    );
    // At capacity a batch is refused before it is decoded: a body that is not protobuf gets the 503 too.
    const garbage = await hung.ingestMetrics(agent, randomUUID(), Buffer.from([0xff, 0xff, 0xff])).catch((error: ApiError) => error);
    expect(garbage).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    const settled = await Promise.all(outcomes);
    for (const socket of sockets) socket.destroy();
    blackHole.close();

    const busy = settled.filter((o) => !o.ok && o.retryAfter === 1);
    const brokerDown = settled.filter((o) => !o.ok && o.retryAfter === 5);
    expect(busy).toHaveLength(extra);
    expect(brokerDown).toHaveLength(MAX_IN_FLIGHT_BATCHES);
    expect(settled.every((o) => !o.ok && o.code === 'unavailable')).toBe(true);
    // The refused batches were answered before any publish gave up.
    expect(Math.max(...busy.map((o) => o.after))).toBeLessThan(Math.min(...brokerDown.map((o) => o.after)));
  }, 90_000);
});
