// Kafka down during a replay, then back (issue 9, back-pressure): ingest answers
// 503 with Retry-After instead of accepting what it cannot publish, the agent
// backs off and spools, and after Kafka returns `tierwise-agent send-spool`
// delivers the spool; every I/O arrives exactly once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, seedTenant, replay, runAgent, waitForVolumes, env, ROOT, TRACES } from '../lib/stack.mjs';

const EXIT_UNDELIVERED = 5;
const run = promisify(execFile);
let stack;

/** infra/local/kafka.sh start|stop of the running profile (the test profile under ./tierwise test). */
function kafka(command) {
  return run('bash', [path.join(ROOT, 'infra/local/kafka.sh'), command], { env: process.env });
}

before(async () => {
  stack = await startStack();
});

after(async () => {
  await kafka('start');
  await stack?.stop();
});

test('Kafka down during a replay: 503 with Retry-After, the agent spools, every I/O arrives once after Kafka is back', async () => {
  const tenant = await seedTenant('e2e-kafka-down');
  const spoolDir = path.join(await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-kafka-down-')), 'spool');
  await kafka('stop');

  const probe = await fetch(`${env('TIERWISE_INGEST_URL')}/v1/metrics`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tenant.agent_token}`, 'content-type': 'application/x-protobuf', 'x-tierwise-batch-id': crypto.randomUUID() },
    body: await emptyButValidMetricsBody(),
  });
  assert.equal(probe.status, 503, await probe.text());
  assert.ok(Number(probe.headers.get('retry-after')) > 0, 'Retry-After is set');

  const replayed = await replay(tenant, [path.join(TRACES, 'msr_hm_0_sample1000.csv')], ['--spool-dir', spoolDir, '--drain-timeout', '1s']);
  assert.equal(replayed.code, EXIT_UNDELIVERED, replayed.stderr);
  assert.match(replayed.stderr, /ingest unreachable \(HTTP 503[^)]*\); spooling batches/);
  assert.ok(replayed.summary.spooled_batches > 0, JSON.stringify(replayed.summary));
  assert.equal(replayed.summary.spool_dropped_batches, 0);

  await kafka('start');
  const send = await runAgent(['send-spool', '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token, '--spool-dir', spoolDir]);
  assert.equal(send.code, 0, send.stderr);
  assert.match(send.stdout, / 0 rejected, 0 dropped at the size bound, 0 left/);
  // Exactly once: the volume holds the trace's 1,000 I/Os, not more (the rollup sums every
  // accepted interval; a batch accepted twice would count twice).
  await waitForVolumes(tenant, { volumeCount: 1, ops: 1000, withWorkingSet: false });
});

/** A one-volume OTLP request with one data point, as the agent would send. */
async function emptyButValidMetricsBody() {
  const { ExportMetricsServiceRequest } = (await import('@tierwise/proto')).default;
  const now = BigInt(Date.now()) * 1_000_000n;
  return Buffer.from(ExportMetricsServiceRequest.encode({
    resourceMetrics: [{
      resource: { attributes: [
        { key: 'host.id', value: { stringValue: '00000000000000aa' } },
        { key: 'tierwise.volume.id', value: { stringValue: '00000000000000bb' } },
      ] },
      scopeMetrics: [{ metrics: [{ name: 'tierwise.io.operations', sum: {
        aggregationTemporality: 1, isMonotonic: true,
        dataPoints: [{ startTimeUnixNano: now - 10_000_000_000n, timeUnixNano: now, asInt: 1, attributes: [
          { key: 'io.direction', value: { stringValue: 'read' } },
          { key: 'io.source', value: { stringValue: 'frontend' } },
        ] }],
      } }] }],
    }],
  }));
}
