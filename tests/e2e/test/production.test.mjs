// Production settings end to end (issue 9; issue 8's health alerts): ingest and the Flink jobs
// reach Kafka over SASL/SCRAM only (the broker's SCRAM listener, as Amazon MSK requires it,
// here without TLS); one trace follows an agent's batch from ingest's HTTP request through
// Kafka to the jobs' PostgreSQL write, received by a real OTLP/HTTP receiver together with the
// Flink metrics; and the cache health the agent reports (latency by block size) fills the
// interval's volume_metrics_10s row, where the notifier's latency alert fires and reaches Slack.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startStack, seedTenant, waitFor, waitForVolumes, env, ROOT } from '../lib/stack.mjs';
import { startOtlpReceiver } from '../lib/otlp-receiver.mjs';

const run = promisify(execFile);
const SCRAM_USER = 'tierwise-e2e';
const SCRAM_PASSWORD = `e2e-${crypto.randomUUID()}`;
const SPAN_KIND = { SERVER: 2, PRODUCER: 4, CONSUMER: 5, CLIENT: 3 };
let stack;
let receiver;
let owner;

before(async () => {
  await run('bash', [path.join(ROOT, 'infra/local/kafka.sh'), 'add-scram-user', SCRAM_USER, SCRAM_PASSWORD], { env: process.env });
  receiver = await startOtlpReceiver();
  stack = await startStack({ env: {
    // Only the SASL_PLAINTEXT listener: a client without the credentials gets nowhere.
    TIERWISE_KAFKA_BROKERS: `127.0.0.1:${env('TIERWISE_KAFKA_SCRAM_PORT')}`,
    TIERWISE_KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
    TIERWISE_KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
    TIERWISE_KAFKA_SASL_USERNAME: SCRAM_USER,
    TIERWISE_KAFKA_SASL_PASSWORD: SCRAM_PASSWORD,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_METRIC_EXPORT_INTERVAL: '2000',
  } });
  owner = new pg.Client({ connectionString: env('TIERWISE_PG_OWNER_URL') });
  await owner.connect();
});

after(async () => {
  await stack?.stop();
  await receiver?.close();
  await owner?.end();
});

test('ingest and the jobs over SASL/SCRAM: one trace follows a batch from ingest through Kafka to the database write', async () => {
  const tenant = await seedTenant('e2e-production-trace');
  const batchId = crypto.randomUUID();
  const res = await postMetrics(tenant, batchId, await agentInterval({ volumeId: '0000000000000a01', meanLatencyUs: 300 }));
  assert.equal(res.status, 200, await res.text());
  // The jobs consumed it over SCRAM too: the interval is in PostgreSQL.
  await waitForVolumes(tenant, { volumeCount: 1, ops: 10, withWorkingSet: false });

  // Every consume span of the record: the jobs consume at least once, so a restart between the
  // consumption and the checkpoint consumes it again, and that consumption leads to the write.
  const consumesOfBatch = () => receiver.spans.filter((s) => s.service === 'tierwise-stream-jobs'
    && s.attributes['tierwise.batch.id'] === `${batchId}#0`); // ingest's record id: <batch id>#<volume index>
  const writes = () => receiver.spans.filter((s) => s.name === 'INSERT volume_metrics_10s');
  const trace = await waitFor('the batch\'s spans from ingest and the jobs', () => {
    for (const consume of consumesOfBatch()) {
      const write = writes().find((s) => s.parentSpanId === consume.spanId || s.links.some((l) => l.spanId === consume.spanId));
      if (write) return { consume, write };
    }
    return null;
  }, { timeoutMs: 60_000 }).catch((error) => {
    const seen = [...new Set(receiver.spans.map((s) => `${s.service}: ${s.name}`))];
    const links = writes().map((s) => s.links.length);
    throw new Error(`${error.message}; ${consumesOfBatch().length} consume span(s) of the batch, ${links.length} write span(s) `
      + `of volume_metrics_10s with ${links.join(', ')} link(s); the receiver has ${receiver.spans.length} spans: ${seen.join(', ')}`);
  });
  const { consume, write } = trace;
  const inTrace = receiver.spans.filter((s) => s.traceId === consume.traceId);
  const publish = inTrace.find((s) => s.service === 'tierwise-ingest' && s.name === 'telemetry.metrics.v1 publish');
  const request = inTrace.find((s) => s.service === 'tierwise-ingest' && s.kind === SPAN_KIND.SERVER);
  assert.ok(request, `ingest's HTTP span is in the trace: ${JSON.stringify(inTrace.map((s) => [s.service, s.name]))}`);
  assert.ok(publish, 'ingest\'s Kafka publish span is in the trace');
  assert.equal(publish.kind, SPAN_KIND.PRODUCER);
  assert.equal(consume.kind, SPAN_KIND.CONSUMER);
  assert.equal(consume.name, 'telemetry.metrics.v1 process');
  assert.equal(consume.parentSpanId, publish.spanId, 'the consume span continues the traceparent of the Kafka record');
  assert.equal(write.service, 'tierwise-stream-jobs');
  assert.equal(write.kind, SPAN_KIND.CLIENT);
  assert.equal(write.attributes['db.system.name'], 'postgresql');
  // The write of the batch's rows: in its trace as the consume span's child, or, when the same
  // write carried an older batch's rows too (that one is the parent), linked to it
  // (docs/observability.md, fan-in).
  const child = write.parentSpanId === consume.spanId && write.traceId === consume.traceId;
  const linked = write.links.some((l) => l.traceId === consume.traceId && l.spanId === consume.spanId);
  assert.ok(child || linked, `the write span is the consume span's child or links to it: ${JSON.stringify(write)}`);

  // Flink's own metrics over OTLP (flink-metrics-otel reporter).
  await waitFor('Flink metrics at the OTLP receiver', () => receiver.metricNames.some((m) => /numRecordsIn|Status\.JVM/.test(m.name)),
    { timeoutMs: 60_000 });
});

test("the latency the agent reports per block size fills its interval's cache health and a latency alert reaches Slack", async () => {
  const tenant = await seedTenant('e2e-production-alert');
  const volumeId = '0000000000000a02';
  const slack = await startSlackReceiver();
  const channel = await owner.query(
    `INSERT INTO notification_channels (tenant_id, kind, name, target, digest) VALUES ($1, 'slack-webhook', 'ops', $2, 'immediate') RETURNING id`,
    [tenant.tenant_id, `${slack.url}/hooks/ops`]);
  await owner.query(`INSERT INTO notification_routes (tenant_id, channel_id, event_kinds, min_severity) VALUES ($1, $2, $3, 'info')`,
    [tenant.tenant_id, channel.rows[0].id, ['alert.firing']]);
  await owner.query(
    `INSERT INTO alert_rules (tenant_id, name, kind, threshold, window_seconds, bin_upper_bytes, severity)
     VALUES ($1, '4 KiB reads slow', 'latency', 5000, 600, 4096, 'critical')`, [tenant.tenant_id]);

  // Ten 4 KiB reads at 8 ms each: above the rule's 5 ms.
  const res = await postMetrics(tenant, crypto.randomUUID(), await agentInterval({ volumeId, meanLatencyUs: 8000 }));
  assert.equal(res.status, 200, await res.text());
  const health = await waitFor("the interval's cache health", async () => (await owner.query(
    `SELECT configured_mode, effective_mode, dirty_bytes, latency_us_sum, latency_ops FROM volume_metrics_10s
      WHERE tenant_id = $1 AND volume_id = $2`, [tenant.tenant_id, volumeId])).rows[0], { timeoutMs: 60_000 });
  assert.deepEqual(health, { configured_mode: 'write-back', effective_mode: 'write-back', dirty_bytes: '3145728',
    latency_us_sum: { 4096: 80000 }, latency_ops: { 4096: 10 } });

  const notifier = await startNotifier(slack.url);
  try {
    const message = await waitFor('the alert at the Slack webhook', () => slack.bodies.find((b) => JSON.stringify(b).includes(volumeId)),
      { timeoutMs: 60_000 });
    assert.match(JSON.stringify(message), /4 KiB reads slow/);
  } finally {
    notifier.kill('SIGTERM');
    await once(notifier, 'exit');
    await slack.close();
  }
});

/** POSTs an OTLP metrics body to ingest as the agent does. */
function postMetrics(tenant, batchId, body) {
  return fetch(`${env('TIERWISE_INGEST_URL')}/v1/metrics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', 'x-tierwise-batch-id': batchId },
    body,
  });
}

/**
 * One 10-second interval of one write-back volume as the agent encodes it (proto/METRICS.md),
 * ending now: ten 4 KiB front-end reads, their latency histogram (all in one bucket, mean
 * `meanLatencyUs`), 3 MiB dirty.
 */
async function agentInterval({ volumeId, meanLatencyUs }) {
  const { ExportMetricsServiceRequest } = (await import('@tierwise/proto')).default;
  const end = BigInt(Date.now()) * 1_000_000n;
  const start = end - 10_000_000_000n;
  const bounds = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000];
  const buckets = bounds.map(() => 0).concat(0);
  buckets[bounds.findIndex((b) => b >= meanLatencyUs)] = 10;
  const attrs = (o) => Object.entries(o).map(([key, v]) => ({ key, value: { stringValue: v } }));
  const point = { startTimeUnixNano: start, timeUnixNano: end };
  return Buffer.from(ExportMetricsServiceRequest.encode({
    resourceMetrics: [{
      resource: { attributes: attrs({ 'service.name': 'tierwise-agent', 'host.id': '00000000000000aa', 'tierwise.volume.id': volumeId, 'tierwise.cache.mode': 'write-back' }) },
      scopeMetrics: [{ scope: { name: 'tierwise.agent' }, metrics: [
        { name: 'tierwise.io.operations', unit: '{operation}', sum: { aggregationTemporality: 1, isMonotonic: true,
          dataPoints: [{ ...point, asInt: 10, attributes: attrs({ 'io.direction': 'read', 'io.source': 'frontend' }) }] } },
        { name: 'tierwise.io.latency', unit: 'us', histogram: { aggregationTemporality: 1, dataPoints: [{
          ...point, count: 10, sum: 10 * meanLatencyUs, bucketCounts: buckets, explicitBounds: bounds,
          attributes: attrs({ 'io.direction': 'read', 'io.source': 'frontend', 'tierwise.io.size_bin': '4096' }) }] } },
        { name: 'tierwise.cache.dirty', unit: 'By', gauge: { dataPoints: [{ ...point, asInt: 3 * 1024 * 1024 }] } },
      ] }],
    }],
  }));
}

/**
 * The notifier as a process, evaluating the alert rules every second and trusting
 * `slackWebhookOrigin` (the local receiver) as the Slack webhook origin, as an operator would.
 */
function startNotifier(slackWebhookOrigin) {
  const child = execFile('node', [path.join(ROOT, 'services/notifier/dist/main.js')], {
    cwd: ROOT,
    env: { ...process.env, TIERWISE_ALERT_INTERVAL_SECONDS: '1', TIERWISE_SLACK_WEBHOOK_ORIGIN: slackWebhookOrigin },
  });
  child.stdout.resume();
  child.stderr.resume();
  return child;
}

/** A Slack incoming-webhook stand-in on 127.0.0.1 answering "ok"; keeps the JSON bodies. */
async function startSlackReceiver() {
  const bodies = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    bodies,
    close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }),
  };
}
