// Ingest stopped for three minutes under a serving agent, then restarted (issue 4):
// `tierwise-agent serve` keeps serving fio's I/O over NBD, its sender spools the
// intervals ingest cannot take and, once ingest is back, drains the spool by
// itself (spooled batches are retried with backoff capped at 30 s: no
// `send-spool`). Every 10-second interval the agent closed arrives exactly once:
// the stored I/Os equal fio's, the stored intervals are the agent's, end to end
// with no gap across the outage. The block references (sampling rate 1) arrive
// once too: one per fio I/O.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { AGENT, apiGet, env, seedTenant, startStack, waitFor } from '../lib/stack.mjs';

const INTERVAL_S = 10;
const OUTAGE_MS = 180_000;
/** fio's run: ~15 s before the outage, the outage, and ~30 s after ingest is back. */
const FIO_SECONDS = 240;
/** The sender's backoff cap (edge-agent/src/export/http_sender.hpp, max_backoff) plus time to send. */
const DRAIN_BOUND_MS = 60_000;
const VOLUME = 'outage-vol';

let stack;
let owner;
let dir;
let agent;
const agentLog = [];
const intervalLines = () => agentLog.join('').match(new RegExp(`interval: volume ${VOLUME}:`, 'g'))?.length ?? 0;

before(async () => {
  stack = await startStack();
  owner = new pg.Client({ connectionString: env('TIERWISE_PG_OWNER_URL') });
  await owner.connect();
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-outage-'));
});

after(async () => {
  if (agent && agent.exitCode === null) agent.kill('SIGKILL');
  await owner?.end();
  await stack?.stop();
});

/**
 * Starts `serve` with 10-second intervals, a spool and SHARDS rate 1 (fio's 16 MiB footprint,
 * 4,096 blocks, is under the agent's 10,923-block bound and the service's fixed-size SHARDS
 * bound of 8,192: every 4 KiB I/O is one sampled reference); resolves fio's NBD URI once it listens.
 */
async function startAgent(tenant, spoolDir) {
  const socket = path.join(dir, 'nbd.sock');
  await writeFile(path.join(dir, 'volumes.json'), JSON.stringify({
    listen: `unix:${socket}`,
    volumes: [{ name: VOLUME, datastore: path.join(dir, `${VOLUME}.img`), size: '64MiB', tier: { ram: '8MiB' }, policy: 'lru' }],
  }));
  agent = spawn(AGENT, [
    'serve', '--config', path.join(dir, 'volumes.json'),
    '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token,
    '--key-file', path.join(dir, 'agent.key'), '--interval', `${INTERVAL_S}s`, '--sample-rate', '1', '--spool-dir', spoolDir,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr.on('data', (chunk) => agentLog.push(chunk.toString()));
  await waitFor('the agent to listen', async () => agentLog.join('').includes('serving 1 volume(s)'), { timeoutMs: 30_000 });
  return `nbd+unix:///${VOLUME}?socket=${socket}`;
}

/** Random 4 KiB reads and writes (~200 IOPS) on `uri` for `seconds`; resolves {code, ios, json}. */
function runFio(uri, seconds) {
  const out = path.join(dir, 'fio.json');
  const fio = spawn('fio', ['--name=load', '--ioengine=nbd', `--uri=${uri}`, '--rw=randrw', '--bs=4k', '--iodepth=4',
    '--size=16M', '--time_based', `--runtime=${seconds}`, '--rate_iops=100', '--output-format=json', `--output=${out}`],
  { stdio: 'ignore' });
  return once(fio, 'exit').then(async ([code]) => {
    const json = JSON.parse(await readFile(out, 'utf8'));
    const job = json.jobs[0];
    return { code, error: job.error, ios: job.read.total_ios + job.write.total_ios, json };
  });
}

/** The volume's intervals through the public API (CSV export): [{start, seconds, ops}]. */
async function exportedIntervals(tenant, volumeId) {
  const res = await fetch(`${env('TIERWISE_API_URL')}/v1/volumes/${volumeId}/metrics/export`, {
    headers: { authorization: `Bearer ${tenant.api_key}` },
  });
  const csv = await res.text();
  assert.equal(res.status, 200, csv);
  const [header, ...lines] = csv.trim().split('\n');
  const col = Object.fromEntries(header.split(',').map((name, i) => [name, i]));
  return lines.map((line) => line.split(',')).map((f) => ({
    start: Date.parse(f[col.interval_start]),
    seconds: Number(f[col.interval_seconds]),
    ops: Number(f[col.read_ops]) + Number(f[col.write_ops]),
  }));
}

test('ingest down for 3 minutes under a serving agent: the spool drains by itself and every interval arrives once', async () => {
  const tenant = await seedTenant('e2e-ingest-outage');
  const spoolDir = path.join(dir, 'spool');
  const fio = runFio(await startAgent(tenant, spoolDir), FIO_SECONDS);

  // Before the outage: the first intervals reach the database.
  const volumeId = await waitFor('the volume in the api', async () => {
    const { body } = await apiGet(tenant.api_key, '/v1/volumes');
    return body.data?.length === 1 ? body.data[0].volume_id : false;
  }, { timeoutMs: 60_000, intervalMs: 1000 });
  await waitFor('a first interval in the api', async () => (await exportedIntervals(tenant, volumeId)).length > 0,
    { timeoutMs: 60_000, intervalMs: 1000 });

  await stack.stopIngest();
  const stoppedAt = Date.now();
  await sleep(OUTAGE_MS);
  const spooledDuringOutage = (await readdir(spoolDir)).length;
  assert.ok(spooledDuringOutage > 0, 'the agent spooled what ingest could not take');
  assert.match(agentLog.join(''), /ingest unreachable \(network error: [^)]*\); spooling batches to /);
  await stack.restartIngest();
  const restartedAt = Date.now();

  // The agent's own sender empties the spool: no send-spool, no restart of the agent.
  await waitFor('the agent to drain its spool', async () => (await readdir(spoolDir)).length === 0,
    { timeoutMs: DRAIN_BOUND_MS + 30_000, intervalMs: 500 });
  const drainedMs = Date.now() - restartedAt;

  const { code, error, ios } = await fio;
  assert.equal(code, 0, 'fio exit code');
  assert.equal(error, 0, 'fio saw no I/O error');
  // Let the interval holding fio's last I/Os close, and one more (idle: nothing to send), so
  // the stop closes an empty interval and every interval with I/O is one log line.
  const linesAtFioEnd = intervalLines();
  await waitFor('the interval of fio\'s last I/Os to close', async () => intervalLines() > linesAtFioEnd,
    { timeoutMs: 3 * INTERVAL_S * 1000 });
  await sleep((INTERVAL_S + 1) * 1000);
  agent.kill('SIGTERM');
  const [exitCode] = await once(agent, 'exit');
  const log = agentLog.join('');
  assert.equal(exitCode, 0, log.slice(-3000));
  const intervals = intervalLines();
  const spool = log.match(/spool .*: (\d+) batches spooled, (\d+) sent from the spool, 0 rejected, 0 dropped at the size bound, 0 left\n/);
  assert.ok(spool, log.slice(-3000));
  const [spooled, sentFromSpool] = [Number(spool[1]), Number(spool[2])];
  assert.ok(spooled >= spooledDuringOutage, `${spooled} spooled, ${spooledDuringOutage} in the spool at the end of the outage`);
  assert.equal(sentFromSpool, spooled, 'every spooled batch was sent from the spool');
  const exported = log.match(/export: (\d+) batches sent, 0 rejected, 0 failed\n/);
  assert.ok(exported, log.slice(-3000));

  // Every I/O fio did is stored once: the fleet totals, the sampled references behind the
  // working set, and the sum of the volume's intervals.
  let summary;
  await waitFor(`${ios} I/Os and ${ios} sampled references in the api`, async () => {
    summary = (await apiGet(tenant.api_key, '/v1/fleet/summary')).body;
    return summary.read_ops + summary.write_ops === ios && summary.sampled_references === ios;
  }, { timeoutMs: 90_000, intervalMs: 1000 }).catch((e) => {
    throw new Error(`${e.message}; the fleet summary holds ${JSON.stringify(summary)}`);
  });
  assert.equal(summary.volumes, 1);
  const rows = await waitFor(`${intervals} intervals holding ${ios} I/Os in the export`, async () => {
    const r = await exportedIntervals(tenant, volumeId);
    return r.length === intervals && r.reduce((sum, i) => sum + i.ops, 0) === ios ? r : false;
  }, { timeoutMs: 60_000, intervalMs: 1000 }).catch(async (e) => {
    const r = await exportedIntervals(tenant, volumeId);
    throw new Error(`${e.message}; the api has ${r.length} intervals with ${r.reduce((s, i) => s + i.ops, 0)} I/Os`);
  });
  assert.ok(rows.every((r) => r.ops > 0), 'every stored interval holds I/O');
  const outageRows = rows.filter((r) => r.start >= stoppedAt && r.start < restartedAt).length;
  assert.ok(outageRows >= Math.floor(OUTAGE_MS / 1000 / INTERVAL_S) - 1, `${outageRows} intervals stored from the outage`);

  // No interval missing: each stored interval ends where the next begins (the agent's windows
  // are back to back), from before the outage to after it. Microseconds, from the database.
  const { rows: [chain] } = await owner.query(
    `SELECT count(*)::int AS rows,
            count(*) FILTER (WHERE next_start IS NOT NULL
              AND abs(extract(epoch FROM next_start - interval_start) - interval_seconds) > 0.005)::int AS gaps,
            min(interval_start) AS first_start, max(interval_start) AS last_start
       FROM (SELECT interval_start, interval_seconds,
                    lead(interval_start) OVER (ORDER BY interval_start) AS next_start
               FROM volume_metrics_10s WHERE tenant_id = $1 AND volume_id = $2) t`,
    [tenant.tenant_id, volumeId]);
  assert.equal(chain.rows, intervals);
  assert.equal(chain.gaps, 0, 'intervals follow each other without a gap');
  assert.ok(chain.first_start.getTime() < stoppedAt && chain.last_start.getTime() > restartedAt,
    `intervals from ${chain.first_start.toISOString()} to ${chain.last_start.toISOString()} span the outage`);
  console.log(`ingest down ${Math.round((restartedAt - stoppedAt) / 1000)} s; spool drained ${(drainedMs / 1000).toFixed(1)} s `
    + `after ingest was back; ${spooled} batches spooled and sent from the spool, ${exported[1]} sent directly; `
    + `${intervals} intervals (${outageRows} from the outage) holding fio's ${ios} I/Os and `
    + `${summary.sampled_references} sampled references, each stored once`);
  assert.ok(drainedMs <= DRAIN_BOUND_MS, `the spool drained ${drainedMs} ms after ingest was back`);
});
