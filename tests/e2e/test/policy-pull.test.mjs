// Policy pull, end to end: a running `tierwise-agent serve` with fio I/O on its
// NBD export picks up each policy change made through the public API (mode,
// tier size, eviction), applies it live, and the API reports it applied, within
// 15 seconds; fio sees no error throughout (docs/policies.md).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, apiGet, apiPut, env, seedTenant, startStack, waitFor } from '../lib/stack.mjs';

/** The bound: a change is applied and reported within this many milliseconds. */
const APPLY_BOUND_MS = 15_000;
const TIER_BYTES = 32 << 20;

let stack;
let dir;
let agent;
const agentLog = [];

before(async () => {
  stack = await startStack({ streamJobs: false });
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-policy-'));
});

after(async () => {
  if (agent && agent.exitCode === null) agent.kill('SIGKILL');
  await stack?.stop();
});

/** Starts `serve` on a write-back volume (tier file with a journal, so WT <-> WB is live). */
async function startAgent(tenant) {
  const socket = path.join(dir, 'nbd.sock');
  await writeFile(path.join(dir, 'volumes.json'), JSON.stringify({
    listen: `unix:${socket}`,
    volumes: [{
      name: 'policy-vol', datastore: path.join(dir, 'policy-vol.img'), size: '64MiB',
      tier: { file: path.join(dir, 'policy-vol.tier'), size: '32MiB' }, policy: 'lru',
      mode: 'write-back', journal_entries: 1024,
    }],
  }));
  agent = spawn(AGENT, [
    'serve', '--config', path.join(dir, 'volumes.json'),
    '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token,
    '--key-file', path.join(dir, 'agent.key'), '--interval', '1s',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr.on('data', (chunk) => agentLog.push(chunk.toString()));
  await waitFor('the agent to listen', async () => agentLog.join('').includes('serving 1 volume(s)'), { timeoutMs: 30_000 });
  return `nbd+unix:///policy-vol?socket=${socket}`;
}

/** Runs fio (random 4 KiB reads and writes, queue depth 8) on `uri` for `seconds`; resolves {code, output}. */
function runFio(uri, seconds) {
  const out = path.join(dir, 'fio.txt');
  const fio = spawn('fio', ['--name=load', '--ioengine=nbd', `--uri=${uri}`, '--rw=randrw', '--bs=4k', '--iodepth=8',
    '--size=48M', '--time_based', `--runtime=${seconds}`, '--rate_iops=2000', `--output=${out}`], { stdio: 'ignore' });
  return once(fio, 'exit').then(async ([code]) => ({ code, output: await readFile(out, 'utf8') }));
}

/** PUTs `policy`, then waits until the API reports its version applied; returns {policy, ms}. */
async function changePolicy(tenant, volumeId, policy) {
  const put = await apiPut(tenant.api_key, `/v1/volumes/${volumeId}/policy`, policy);
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const started = Date.now();
  const applied = await waitFor(`version ${put.body.version} applied`, async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${volumeId}/policy`);
    return body.applied_version === put.body.version ? body : false;
  }, { timeoutMs: APPLY_BOUND_MS, intervalMs: 200 });
  return { policy: applied, ms: Date.now() - started };
}

test('policy changes made through the api are applied live by a serving agent and reported applied within 15 s', async () => {
  const tenant = await seedTenant('e2e-policy', { scope: 'read-write' });
  const uri = await startAgent(tenant);
  const fio = runFio(uri, 45);
  // The volume exists for the api once the agent's first interval with I/O arrived.
  const volumes = await waitFor('the served volume in the api', async () => {
    const { body } = await apiGet(tenant.api_key, '/v1/volumes');
    return body.data?.length === 1 ? body.data : false;
  }, { timeoutMs: 30_000, intervalMs: 500 });
  const volumeId = volumes[0].volume_id;

  const base = { tier_bytes: TIER_BYTES, media: 'nvme', eviction: 'lru' };
  const wt = await changePolicy(tenant, volumeId, { mode: 'write-through', ...base });
  assert.equal(wt.policy.applied_error, null, wt.policy.applied_error);
  assert.equal(wt.policy.in_sync, true);
  assert.ok(Date.parse(wt.policy.applied_at) <= Date.now());
  const wb = await changePolicy(tenant, volumeId, { mode: 'write-back', write_back_copies: 0, ...base });
  assert.equal(wb.policy.applied_error, null, wb.policy.applied_error);
  assert.equal(wb.policy.in_sync, true);
  // What the engine cannot do live is reported, not ignored.
  const big = await changePolicy(tenant, volumeId, { mode: 'write-back', write_back_copies: 0, ...base, tier_bytes: 1 << 30 });
  assert.match(big.policy.applied_error, /tier size 1024 MiB is larger than the configured tier device \(32 MiB\)/);
  assert.equal(big.policy.in_sync, false);
  // The tier size and the eviction policy change live, under fio's I/O: a shrink with S3-FIFO.
  const shrunk = await changePolicy(tenant, volumeId, { mode: 'write-back', write_back_copies: 0, ...base, tier_bytes: TIER_BYTES / 2, eviction: 's3-fifo' });
  assert.equal(shrunk.policy.applied_error, null, shrunk.policy.applied_error);
  assert.equal(shrunk.policy.in_sync, true);
  console.log(`policy applied and reported after ${wt.ms} ms (WB -> WT), ${wb.ms} ms (WT -> WB+0), ${big.ms} ms (tier size), ${shrunk.ms} ms (shrink, s3fifo)`);

  const { code, output } = await fio;
  assert.equal(code, 0, output);
  assert.match(output, /err= 0/, output);
  const log = agentLog.join('');
  assert.match(log, /policy WT, NVMe tier 32 MiB, lru \(version 1\) applied\n/);
  assert.match(log, /policy WB\+0, NVMe tier 32 MiB, lru \(version 2\) applied\n/);
  assert.match(log, /volume policy-vol: changed live: tier 32 MiB -> 16 MiB \(evicted [\d.]+ MiB\); eviction lru -> s3fifo\n/);
  assert.match(log, /policy WB\+0, NVMe tier 16 MiB, s3fifo \(version 4\) applied\n/);
  agent.kill('SIGTERM');
  const [exitCode] = await once(agent, 'exit');
  assert.equal(exitCode, 0, log.slice(-3000));
});
