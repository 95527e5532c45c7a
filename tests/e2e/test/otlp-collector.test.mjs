// A second destination: the agent sends its metrics to Tierwise ingest and,
// unchanged, to an OpenTelemetry collector's OTLP/HTTP receiver (proto/METRICS.md).
// The receiver here is an HTTP server decoding each body with the official
// opentelemetry-proto definitions (proto/gen/otlp, unpacked from the Maven
// artifact io.opentelemetry.proto:opentelemetry-proto).
import http from 'node:http';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ExportMetricsServiceRequest, ExportMetricsServiceResponse } from '@tierwise/proto';
import { replay, seedTenant, startStack, TRACES } from '../lib/stack.mjs';

let stack;
let receiver;
const received = [];

before(async () => {
  stack = await startStack({ streamJobs: false });
  receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end(Buffer.from(ExportMetricsServiceResponse.encode({})));
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
});

after(async () => {
  receiver?.close();
  await stack?.stop();
});

/** The attributes of an OTLP KeyValue list as a plain object of their string/int values. */
function attributes(list) {
  return Object.fromEntries(list.map((kv) => [kv.key, kv.value.stringValue ?? kv.value.intValue]));
}

test('every metrics request also reaches an OpenTelemetry collector, decodable with the official OTLP protos', async () => {
  const tenant = await seedTenant('e2e-otlp-collector');
  const collector = `http://127.0.0.1:${receiver.address().port}`;
  const result = await replay(tenant, [path.join(TRACES, 'msr_hm_0_sample1000.csv')], [
    '--otlp-endpoint', collector, '--otlp-header', 'Authorization: Basic dGllcndpc2U6c2VjcmV0',
  ]);
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  assert.match(result.stdout, /OpenTelemetry collector: (\d+) metric batches sent, 0 rejected, 0 failed/);
  const sent = Number(/OpenTelemetry collector: (\d+) metric batches sent/.exec(result.stdout)[1]);

  assert.ok(received.length > 0);
  assert.equal(received.length, sent, 'one request per metrics batch the agent counted');
  assert.deepEqual([...new Set(received.map((r) => `${r.method} ${r.url}`))], ['POST /v1/metrics'], 'metrics only, never the ReferenceBatches');
  const operations = { read: 0, write: 0 };
  let exponentialPoints = 0;
  let peakPoints = 0;
  for (const r of received) {
    assert.equal(r.headers['content-type'], 'application/x-protobuf');
    assert.equal(r.headers.authorization, 'Basic dGllcndpc2U6c2VjcmV0', 'the collector header, not the agent token');
    const request = ExportMetricsServiceRequest.decode(r.body);
    for (const rm of request.resourceMetrics) {
      const resource = attributes(rm.resource.attributes);
      assert.equal(resource['service.name'], 'tierwise-agent');
      assert.match(resource['host.id'], /^[0-9a-f]{16}$/);
      assert.match(resource['tierwise.volume.id'], /^[0-9a-f]{16}$/);
      for (const metric of rm.scopeMetrics[0].metrics) {
        if (metric.sum) assert.equal(metric.sum.aggregationTemporality, 1, `${metric.name} is delta`); // AGGREGATION_TEMPORALITY_DELTA
        if (metric.histogram) assert.equal(metric.histogram.aggregationTemporality, 1, `${metric.name} is delta`);
        if (metric.name === 'tierwise.io.operations') {
          for (const p of metric.sum.dataPoints) {
            const a = attributes(p.attributes);
            if (a['io.source'] === 'frontend') operations[a['io.direction']] += Number(p.asInt);
          }
        }
        if (metric.name === 'tierwise.io.size') {
          assert.deepEqual(metric.histogram.dataPoints[0].explicitBounds,
            [512, 1024, 2048, 4095, 4096, 8191, 8192, 16383, 16384, 32768, 49152, 65535, 65536, 81920, 131072, 262144, 524288],
            'vscsiStats ioLength bins');
        }
        if (metric.name === 'tierwise.io.latency.exponential') {
          assert.equal(metric.exponentialHistogram.aggregationTemporality, 1);
          for (const p of metric.exponentialHistogram.dataPoints) {
            assert.equal(p.scale, 3);
            const buckets = p.positive.bucketCounts.reduce((n, c) => n + Number(c), 0);
            assert.equal(buckets + Number(p.zeroCount), Number(p.count), 'bucket counts add up to the count');
            exponentialPoints += 1;
          }
        }
        if (metric.name === 'tierwise.io.operations.peak') {
          for (const p of metric.gauge.dataPoints) {
            assert.ok(Number(p.asInt) >= 1);
            peakPoints += 1;
          }
        }
      }
    }
  }
  // msr_hm_0_sample1000: 508 reads and 492 writes (traces/README.md).
  assert.deepEqual(operations, { read: 508, write: 492 });
  assert.ok(exponentialPoints > 0, 'latency as exponential histograms');
  assert.ok(peakPoints > 0, 'the busiest second of each interval');
});
