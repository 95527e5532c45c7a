// Storage-bound CPU in the live system (docs/workload.md "Storage-bound CPU"): a serving agent
// runs fio's 4 KiB random reads on its NBD export, first with a 4 MiB RAM tier in front of a
// datastore read with O_DIRECT (every read goes to the disk), then, after a policy change made
// through the api grows the tier to hold the whole region, from RAM. The agent samples the host's
// CPU (/proc/stat) and fio's own (the NBD socket's peer, SO_PEERCRED): the series carries both
// beside the latency, and the policy effect reads the change as CPU that rose as latency fell:
// work getting done, not a problem.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT, apiGet, apiPut, env, seedTenant, shell, startStack, waitFor } from '../lib/stack.mjs';

const VOLUME = 'cpu-vol';
/** The host's RAM tier; the first policy shrinks it to SMALL_TIER, the second grows it back. */
const HOST_TIER = '192MiB';
const SMALL_TIER = 4 << 20;
const LARGE_TIER = 192 << 20;
/** 4 KiB random reads over the datastore's first 128 MiB: held by the large tier, not the small one. */
const WORKLOAD = ['--rw=randread', '--bs=4k', '--iodepth=8', '--size=128M', '--time_based', '--runtime=40'];

let stack;
let tenant;
let dir;
let agent;
const agentLog = [];

before(async () => {
  stack = await startStack();
  tenant = await seedTenant('e2e-storage-bound-cpu', { scope: 'read-write' });
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-cpu-'));
});

after(async () => {
  if (agent && agent.exitCode === null) {
    agent.kill('SIGTERM');
    await once(agent, 'exit');
  }
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts `serve` on a write-through volume whose datastore holds written data; resolves fio's NBD URI. */
async function startAgent() {
  const socket = path.join(dir, 'nbd.sock');
  const datastore = path.join(dir, `${VOLUME}.img`);
  // Written, not sparse: a hole is read without touching the disk.
  await shell(`head -c ${128 << 20} /dev/urandom > ${datastore}`);
  await writeFile(path.join(dir, 'volumes.json'), JSON.stringify({
    listen: `unix:${socket}`,
    volumes: [{ name: VOLUME, datastore, size: '128MiB', tier: { ram: HOST_TIER }, mode: 'write-through' }],
  }));
  agent = spawn(AGENT, [
    'serve', '--config', path.join(dir, 'volumes.json'),
    '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token,
    '--key-file', path.join(dir, 'agent.key'), '--interval', '2s',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr.on('data', (chunk) => agentLog.push(chunk.toString()));
  await waitFor('the agent to listen', async () => agentLog.join('').includes('serving 1 volume(s)'), { timeoutMs: 30_000 });
  assert.match(agentLog.join(''), /O_DIRECT/, 'the datastore is read with O_DIRECT');
  return `nbd+unix:///${VOLUME}?socket=${socket}`;
}

/** Runs WORKLOAD on `uri`; resolves fio's JSON report of the job. */
async function runFio(uri, name) {
  const out = path.join(dir, `${name}.json`);
  const fio = spawn('fio', [`--name=${name}`, '--ioengine=nbd', `--uri=${uri}`, ...WORKLOAD, '--output-format=json', `--output=${out}`],
    { stdio: 'ignore' });
  const [code] = await once(fio, 'exit');
  const report = await readFile(out, 'utf8').catch(() => '');
  assert.equal(code, 0, `fio failed: ${report.slice(-2000)}`);
  return JSON.parse(report).jobs[0];
}

/** PUTs a write-through RAM policy of `tierBytes` and waits until the agent reports it applied. */
async function applyTier(volumeId, tierBytes) {
  const put = await apiPut(tenant.api_key, `/v1/volumes/${volumeId}/policy`, { mode: 'write-through', tier_bytes: tierBytes, media: 'ram', eviction: 's3-fifo' });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return waitFor(`policy version ${put.body.version} applied`, async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${volumeId}/policy`);
    return body.applied_version === put.body.version ? body : null;
  }, { timeoutMs: 30_000, intervalMs: 250 });
}

test('CPU beside latency on a serve run, and a policy change read as work done', { timeout: 600_000 }, async () => {
  const uri = await startAgent();
  // The volume appears with the agent's first interval of I/O.
  const warmUp = spawn('fio', ['--name=probe', '--ioengine=nbd', `--uri=${uri}`, '--rw=randread', '--bs=4k', '--size=4M', '--io_size=4M'], { stdio: 'ignore' });
  await once(warmUp, 'exit');
  const id = await waitFor('the volume in the api', async () => (await apiGet(tenant.api_key, '/v1/volumes')).body.data?.[0]?.volume_id ?? null,
    { timeoutMs: 60_000, intervalMs: 1000 });
  const small = await applyTier(id, SMALL_TIER);
  assert.equal(small.applied_error, null);

  // 1. Storage-bound: nearly every read misses the 4 MiB tier and waits on the disk.
  const slow = await runFio(uri, 'slow');
  // 2. The policy change grows the tier to hold the region; fio runs the same reads from RAM.
  const large = await applyTier(id, LARGE_TIER);
  assert.equal(large.applied_error, null);
  const fast = await runFio(uri, 'fast');
  const end = Date.now();

  // 3. The series: the host's CPU and fio's (the export's consumer) beside the latency.
  const from = new Date(Date.parse(small.applied_at) - 10_000).toISOString();
  const series = await waitFor('the series to reach the end of the second run', async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/series?scope=volume&scope_id=${id}&from=${from}&to=${new Date(end + 20_000).toISOString()}&width=200&resolution=10s`);
    const last = body.points?.at(-1);
    return last && Date.parse(last.t) >= end - 20_000 ? body : null;
  }, { timeoutMs: 90_000, intervalMs: 2000 });
  const busy = series.points.filter((p) => p.read_iops > 100);
  assert.ok(busy.length >= 6, `windows of both runs: ${busy.length}`);
  for (const p of busy) {
    assert.ok(p.cpu, `CPU time beside the I/O at ${p.t}`);
    assert.equal(p.cpu.consumer_kind, 'process', 'fio, the NBD socket\'s peer, is the consumer');
    assert.ok(p.cpu.consumer_cores > 0 && p.cpu.consumer_cores <= cpus().length, `consumer cores ${p.cpu.consumer_cores}`);
    // host_cpus is /proc/stat's CPU time over wall time, which a VM's kernel under the full CI
    // load misses or overshoots by a tenth or more: each window is held within a quarter of the
    // CPU count, as a unit slip or a wall time counted twice or not at all is a factor of 2.
    assert.ok(Math.abs(p.cpu.host_cpus - cpus().length) <= cpus().length / 4, `the host's CPUs ${p.cpu.host_cpus}`);
    assert.ok(p.cpu.host_busy > 0 && p.cpu.host_busy <= 1);
  }

  // 4. The policy effect: latency fell, fio's CPU rose with its IOPS, its CPU per I/O held.
  const effect = await waitFor('the policy effect over the second run', async () => {
    const { status, body } = await apiGet(tenant.api_key, `/v1/volumes/${id}/policy-effect`);
    assert.equal(status, 200, JSON.stringify(body));
    return body.after && body.after.seconds >= 30 ? body : null;
  }, { timeoutMs: 60_000, intervalMs: 2000 });
  assert.equal(effect.policy_version, large.applied_version);
  assert.ok(effect.after.latency_p50_us < effect.before.latency_p50_us, JSON.stringify(effect));
  assert.ok(effect.after.consumer_cores > effect.before.consumer_cores, JSON.stringify(effect));
  assert.equal(effect.verdict, 'work_done', effect.statement);
  assert.match(effect.statement, /work getting done, not a problem/);
  console.log(`storage-bound CPU: fio ${Math.round(slow.read.iops)} -> ${Math.round(fast.read.iops)} IOPS; ${effect.statement}`);
});
