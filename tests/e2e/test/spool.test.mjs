// Ingest stopped during a replay, then restarted: the agent spools what it
// cannot deliver, exits 5 naming the spool, and `tierwise-agent send-spool`
// later delivers it; every interval arrives exactly once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startStack, seedTenant, replay, runAgent, waitForVolumes, env, TRACES } from '../lib/stack.mjs';

const EXIT_UNDELIVERED = 5;
let stack;

before(async () => {
  stack = await startStack();
});

after(async () => {
  await stack?.stop();
});

test('ingest down during a replay, then back: send-spool delivers every I/O exactly once', async () => {
  const tenant = await seedTenant('e2e-spool');
  const spoolDir = path.join(await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-spool-')), 'spool');
  await stack.stopIngest();
  const run = await replay(tenant, [path.join(TRACES, 'msr_hm_0_sample1000.csv')],
    ['--spool-dir', spoolDir, '--drain-timeout', '1s']);
  assert.equal(run.code, EXIT_UNDELIVERED, run.stderr);
  assert.match(run.stderr, /batches left in the spool .*spool; they are sent by the next run/);
  assert.ok(run.summary.spooled_batches > 0, JSON.stringify(run.summary));
  assert.equal(run.summary.spool_left_batches, run.summary.spooled_batches);
  assert.equal(run.summary.spool_dropped_batches, 0);
  assert.equal(run.summary.traces[0].batches_sent, 0);
  assert.equal((await readdir(spoolDir)).length, run.summary.spooled_batches, 'one file per batch');

  await stack.restartIngest();
  const send = await runAgent(['send-spool', '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token,
    '--spool-dir', spoolDir]);
  assert.equal(send.code, 0, send.stderr);
  assert.match(send.stdout, new RegExp(`${run.summary.spooled_batches} sent from the spool, 0 rejected, 0 dropped at the size bound, 0 left`));
  assert.deepEqual(await readdir(spoolDir), []);
  await waitForVolumes(tenant, { volumeCount: 1, ops: 1000, withWorkingSet: false });
});
