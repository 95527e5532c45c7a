// Write-back advice and the replica interconnect (issue 18; docs/analytics.md "The replica
// interconnect"): `tierwise-agent serve` with a write-back volume whose WB+1 peer is a real
// `tierwise-agent peer`, fio reading and writing 4 KiB and 64 KiB blocks over NBD, the telemetry
// through ingest and the Flink jobs to a recommendation. Once the peer holds every acknowledgement
// 5 ms (a link slower than the datastore's assumed 1 ms for every write): the recommendation must
// keep write-back off and name the size bins and the link; once it acknowledges at once: write-back.
// The destager is held below the rate fio writes at, so the backlog grows and a write is released by
// its peer's acknowledgement, not by its own destage (which would end its measured peer time first:
// docs/analytics.md "The replica interconnect").
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AGENT, apiGet, env, seedTenant, startStack, waitFor } from '../lib/stack.mjs';

let stack;
const children = [];

before(async () => {
  stack = await startStack();
});

after(async () => {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  await stack?.stop();
});

/**
 * Serves one write-back volume with a peer holding each acknowledgement `ackDelayUs`, runs fio with
 * `bssplit` (reads and writes) on it, and resolves its recommendation.
 */
async function recommendationWithPeerDelay(name, ackDelayUs, bssplit) {
  const tenant = await seedTenant(name);
  const work = await mkdtemp(path.join(tmpdir(), `tierwise-${name}-`));
  const portFile = path.join(work, 'peer.port');
  const peer = spawn(AGENT, ['peer', '--listen', '127.0.0.1:0', '--port-file', portFile, '--ack-delay-us', String(ackDelayUs)], { stdio: 'ignore' });
  children.push(peer);
  const port = await waitFor('the peer to listen', async () => (await readFile(portFile, 'utf8').catch(() => '')).trim() || null, { timeoutMs: 10_000, intervalMs: 100 });
  const socket = path.join(work, 'nbd.sock');
  const config = path.join(work, 'volumes.json');
  await writeFile(config, JSON.stringify({
    listen: `unix:${socket}`,
    volumes: [{ name: 'db', datastore: path.join(work, 'db.img'), size: '256MiB', mode: 'write-back', tier: { file: path.join(work, 'db.tier'), size: '512MiB' }, journal_entries: 32768, destage_rate: '256KiB', peers: [`127.0.0.1:${port}`] }],
  }));
  const log = [];
  const agent = spawn(AGENT, ['serve', '--config', config, '--key-file', path.join(work, 'agent.key'), '--ingest', env('TIERWISE_INGEST_URL'),
    '--token', tenant.agent_token, '--interval', '2s', '--sample-rate', '1', '--send-names'], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(agent);
  agent.stderr.on('data', (chunk) => log.push(chunk.toString()));
  await waitFor('the agent to serve its volume', async () => {
    assert.equal(agent.exitCode, null, `the agent exited:\n${log.join('')}`);
    return log.join('').includes('serving 1 volume(s)');
  }, { timeoutMs: 30_000 });
  // 70 % writes (write-back is worth considering), reads for a read curve, over a 64 MiB region;
  // one I/O at a time, so a 4 KiB write's record never queues behind a 64 KiB write's at the peer;
  // norandommap keeps fio's sizes whole.
  await promisify(execFile)('fio', ['--name=mix', '--ioengine=nbd', `--uri=nbd+unix:///db?socket=${socket}`, '--rw=randrw', '--rwmixread=30',
    `--bssplit=${bssplit},${bssplit}`, '--norandommap', '--iodepth=1', '--size=64M', '--time_based', '--runtime=20', '--output-format=terse'], { timeout: 120_000 });
  const fioEnded = Date.now();
  let last = null;
  const volume = await waitFor(`the recommendation of ${name}`, async () => {
    const list = await apiGet(tenant.api_key, '/v1/volumes');
    const id = list.body.data?.[0]?.volume_id;
    if (!id) return null;
    const detail = (await apiGet(tenant.api_key, `/v1/volumes/${id}`)).body;
    last = { io: detail.io, working_set: detail.working_set?.wss_bytes ?? null, recommendation: detail.recommendation && { policy: detail.recommendation.policy, inputs: detail.recommendation.inputs } };
    return detail.recommendation?.inputs?.interconnect?.fitted_to_measured ? detail : null;
  }, { timeoutMs: 300_000, intervalMs: 2000 }).catch((e) => {
    throw new Error(`${e.message}; the volume: ${JSON.stringify(last)}; the agent:\n${log.join('').slice(-3000)}`);
  });
  console.log(`${name}: recommended ${((Date.now() - fioEnded) / 1000).toFixed(0)} s after fio ended`);
  agent.kill('SIGTERM');
  await once(agent, 'exit');
  peer.kill('SIGTERM');
  await once(peer, 'exit');
  return volume.recommendation;
}

test('a peer link slower than the datastore keeps write-back off and names the bins; without the delay write-back is recommended', async () => {
  const slow = await recommendationWithPeerDelay('e2e-slow-link', 5000, '4k/50:64k/50');
  // 4 KiB writes only: a 64 KiB replica over this machine's loaded loopback may or may not beat
  // the datastore's assumed 1 ms + 200 MB/s (TierRecommenderTest holds the per-bin case).
  const fast = await recommendationWithPeerDelay('e2e-fast-link', 0, '4k');
  console.log(`slow link: ${slow.policy}; ${JSON.stringify(slow.inputs.interconnect)}`);
  console.log(`fast link: ${fast.policy}; ${JSON.stringify(fast.inputs.interconnect)}`);
  // 5 ms per record, one record per 4 KiB block acknowledged in turn: every write waits longer on
  // the peer than on the datastore (1 ms + 200 MB/s), and the longer the more blocks it has, so the
  // fit reads the link as narrow (a few Mb/s). Both bins are the link's bottleneck; the speed that
  // would fix one is null when the fitted round trip alone is slower than the datastore (the fit's
  // split between round trip and bandwidth varies run to run), else above the fitted speed.
  const link = slow.inputs.interconnect;
  assert.equal(slow.policy, 'write-through', slow.explanation);
  assert.deepEqual([...link.write_back_slower_bins].sort(), ['4096', '65536']);
  assert.ok(link.peer_link_gbps < 0.1, JSON.stringify(link));
  assert.deepEqual(Object.keys(link.peer_bottleneck_gbps_needed).sort(), ['4096', '65536'], JSON.stringify(link));
  for (const gbps of Object.values(link.peer_bottleneck_gbps_needed)) assert.ok(gbps === null || gbps > link.peer_link_gbps, JSON.stringify(link));
  assert.match(slow.explanation, /Write-back is slower than the datastore for writes of 4 KiB, 64 KiB \(peer link: .*fitted to the measured replica writes\); the interconnect is the bottleneck for 4 KiB, 64 KiB.*so write-back would make this volume's writes slower overall\./);
  // Without the delay the replicas of 4 KiB writes beat the datastore: write-back.
  assert.equal(fast.policy, 'write-back', fast.explanation);
  assert.deepEqual(fast.inputs.interconnect.write_back_faster_bins, ['4096']);
  assert.doesNotMatch(fast.explanation, /Write-back is slower/);
});
