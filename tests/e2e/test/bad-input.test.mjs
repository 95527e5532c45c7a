// Bad input gets a clear error and loses nothing else: each bad piece is reported
// (agent exit code and file:line, HTTP 4xx with a reason) while the good records
// and batches around it arrive.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, seedTenant, replay, waitForVolumes, apiGet, env, TRACES } from '../lib/stack.mjs';

const EXIT_MALFORMED = 3;
const EXIT_REJECTED = 4;
let stack;
let dir;

before(async () => {
  stack = await startStack();
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-bad-input-'));
});

after(async () => {
  await stack?.stop();
});

test('a truncated vscsi file: the agent names the torn record, every whole record arrives', async () => {
  const full = await readFile(path.join(TRACES, 'cloudphysics_w_sample.vscsi'));
  const truncated = path.join(dir, 'truncated.vscsi');
  await writeFile(truncated, full.subarray(0, 1000 * 32 + 10)); // 1,000 records and a torn one
  const tenant = await seedTenant('e2e-truncated');
  const run = await replay(tenant, [truncated]);
  assert.equal(run.code, EXIT_MALFORMED, run.stderr);
  assert.match(run.stderr, /truncated\.vscsi/);
  assert.match(run.stderr, /record 1001|1,?001|truncat/i);
  await waitForVolumes(tenant, { volumeCount: 1, ops: 1000, withWorkingSet: false });
});

test('a CSV with a broken line: the agent names file and line, the other lines arrive', async () => {
  const lines = (await readFile(path.join(TRACES, 'msr_hm_0_sample1000.csv'), 'utf8')).split('\n');
  lines[499] = '128166372003061629,hm,0,Read,not-a-number,4096,1234';
  const broken = path.join(dir, 'msr_broken.csv');
  await writeFile(broken, lines.join('\n'));
  const tenant = await seedTenant('e2e-broken-csv');
  const run = await replay(tenant, [broken], ['--format', 'msr-csv']);
  assert.equal(run.code, EXIT_MALFORMED, run.stderr);
  assert.match(run.stderr, /msr_broken\.csv:500/);
  await waitForVolumes(tenant, { volumeCount: 1, ops: 999, withWorkingSet: false });
});

test('an OTLP body that is not protobuf gets 400 with a reason; the next good batch goes through', async () => {
  const tenant = await seedTenant('e2e-not-protobuf');
  const res = await fetch(`${env('TIERWISE_INGEST_URL')}/v1/metrics`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tenant.agent_token}`,
      'content-type': 'application/x-protobuf',
      'x-tierwise-batch-id': '6d1f9a4e-0000-4000-8000-000000000001',
    },
    body: Buffer.from('{"this is": "json, not protobuf"}'),
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.match(body.message, /protobuf|ExportMetricsServiceRequest/i);
  assert.ok(body.request_id, 'the error carries a request id');
  const run = await replay(tenant, [path.join(TRACES, 'msr_hm_0_sample1000.csv')]);
  assert.equal(run.code, 0, run.stderr);
  await waitForVolumes(tenant, { volumeCount: 1, ops: 1000, withWorkingSet: false });
});

test('a batch with a wrong token is refused with 401 and the agent says so', async () => {
  const tenant = await seedTenant('e2e-wrong-token');
  const run = await replay({ ...tenant, agent_token: 'not-a-real-token' }, [path.join(TRACES, 'msr_hm_0_sample1000.csv')]);
  assert.equal(run.code, EXIT_REJECTED, run.stderr);
  assert.match(run.stderr, /401/);
  const { body } = await apiGet(tenant.api_key, '/v1/fleet/summary');
  assert.equal(body.volumes, 0, 'nothing reached the tenant');
});
