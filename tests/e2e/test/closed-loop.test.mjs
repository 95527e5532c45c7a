// The closed loop in the live system (docs/analytics.md "The closed loop"): a serving agent
// runs fio's reads on its NBD export with a 1 GiB RAM tier; the Flink jobs recommend a tier
// for it; the recommendation is applied through the API (no body: the recommended eviction
// policy too); the agent pulls it, shrinks its tier live and reports the version applied; fio
// runs the same workload again, and only the intervals after that report, once the tier is
// full, measure the prediction. The measured hit ratio, the error and the time it was measured
// over appear in the recommendation's history and on its portal page (headless Chromium, with the
// what-if control answering for another size and policy), and
// the recommendation stays `applied` throughout: no other tier is recommended while this one's
// prediction holds (hysteresis), and a new prediction for the same tier stays applied and goes on
// with the measurement. Last, the
// agent restarts with the same key: the volume's working-set windows go on, not start again.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, startPortal } from '../lib/portal.mjs';
import { AGENT, apiGet, apiPost, env, seedTenant, startStack, waitFor } from '../lib/stack.mjs';

const VOLUME = 'loop-vol';
/**
 * The host's RAM tier: larger than the workload's recommendation, which the agent applies by
 * shrinking the tier live (a RAM tier cannot grow past what the host gave it).
 */
const START_TIER = '1GiB';
/**
 * 4 KiB random reads over a 1 GiB volume, 80 % of them on its first 10 % (a hot set of about
 * 102 MiB), 20 % over the rest: a tier holds the hot set and gains a little on the rest.
 * fio repeats its offsets run by run (randrepeat), so both runs see the same workload.
 */
const WORKLOAD = ['--rw=randread', '--bs=4k', '--iodepth=8', '--size=1G', '--random_distribution=zoned:80/10:20/90'];
/** I/Os of the run the recommendation is made from, and of the run that measures it. */
const BEFORE_IOS = 2_400_000;
const AFTER_IOS = 1_200_000;
const RESTART_IOS = 200_000;
/**
 * The measuring run's pace: AFTER_IOS at this rate takes about 24 s, so whatever the phase of the
 * 10-second rollup intervals, at least one whole one starts after the agent's report and holds
 * the run's reads. Only those count (migration 795: an interval counts from the report's applied_at);
 * unpaced, the run took under 10 s and could fall entirely in the interval the report cut.
 */
const AFTER_RATE_IOPS = 50_000;
const WEB = env('TIERWISE_WEB_URL');

let stack;
let portal;
let browser;
let tenant;
let dir;
let agent;
const agentLog = [];

before(async () => {
  [stack, portal] = await Promise.all([startStack(), startPortal()]);
  browser = await launchChromium();
  tenant = await seedTenant('e2e-closed-loop', { scope: 'read-write', login: `loop-${process.pid}-${Date.now()}@example.test` });
  dir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-loop-'));
});

after(async () => {
  if (agent && agent.exitCode === null) {
    agent.kill('SIGTERM');
    await once(agent, 'exit');
  }
  await browser?.close();
  await portal?.stop();
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts `serve` on a write-through volume with a RAM tier and 2-second intervals; resolves fio's NBD URI. */
async function startAgent() {
  const socket = path.join(dir, 'nbd.sock');
  await writeFile(path.join(dir, 'volumes.json'), JSON.stringify({
    listen: `unix:${socket}`,
    volumes: [{ name: VOLUME, datastore: path.join(dir, `${VOLUME}.img`), size: '1GiB', tier: { ram: START_TIER }, mode: 'write-through' }],
  }));
  agent = spawn(AGENT, [
    'serve', '--config', path.join(dir, 'volumes.json'),
    '--ingest', env('TIERWISE_INGEST_URL'), '--token', tenant.agent_token,
    '--key-file', path.join(dir, 'agent.key'), '--interval', '2s',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr.on('data', (chunk) => agentLog.push(chunk.toString()));
  await waitFor('the agent to listen', async () => agentLog.join('').includes('serving 1 volume(s)'), { timeoutMs: 30_000 });
  return `nbd+unix:///${VOLUME}?socket=${socket}`;
}

/** Runs WORKLOAD on `uri` for `ios` I/Os, at most `rateIops` per second if given; resolves fio's JSON report of the job. */
async function runFio(uri, ios, rateIops) {
  const out = path.join(dir, 'fio.json');
  const pace = rateIops ? [`--rate_iops=${rateIops}`] : [];
  const fio = spawn('fio', ['--name=loop', '--ioengine=nbd', `--uri=${uri}`, ...WORKLOAD, ...pace, `--number_ios=${ios}`,
    '--io_size=64G', '--output-format=json', `--output=${out}`], { stdio: 'ignore' });
  const [code] = await once(fio, 'exit');
  const report = await readFile(out, 'utf8').catch(() => '');
  assert.equal(code, 0, `fio failed: ${report.slice(-2000)}`);
  return JSON.parse(report).jobs[0];
}

/** The volume in the api once it holds `reads` read I/Os (every interval of the runs so far). */
function volumeWithReads(reads) {
  return waitFor(`the volume with ${reads} reads in the api`, async () => {
    const list = await apiGet(tenant.api_key, '/v1/volumes');
    const id = list.body.data?.[0]?.volume_id;
    if (!id) return null;
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${id}`);
    return body.io.read_ops === reads ? body : null;
  }, { timeoutMs: 120_000, intervalMs: 1000 });
}

test('a recommendation applied through the api is measured on the warm tier that runs it, and stays applied while it holds', { timeout: 900_000 }, async () => {
  const uri = await startAgent();

  // 1. The workload on the small tier; the jobs recommend from it.
  const first = await runFio(uri, BEFORE_IOS);
  assert.equal(first.read.total_ios, BEFORE_IOS);
  const volume = await volumeWithReads(BEFORE_IOS);
  const id = volume.volume_id;
  // The last batches' recommendation: unchanged for 10 s (the jobs emit within 1 s of a batch).
  let seen = null;
  const recommendation = await waitFor('a settled recommendation', async () => {
    const { status, body } = await apiGet(tenant.api_key, `/v1/recommendations/${id}`);
    if (status !== 200) return null;
    const settled = seen?.created_at === body.created_at ? body : null;
    seen = body;
    return settled;
  }, { timeoutMs: 120_000, intervalMs: 10_000 });
  assert.equal(recommendation.status, 'open');
  assert.equal(recommendation.media, 'ram');
  assert.ok(recommendation.tier_bytes < 1 << 30, `a tier smaller than the host's: ${recommendation.tier_bytes}`);

  // 2. Applied through the api without a body: its size, media, write policy and eviction policy.
  const applied = await apiPost(tenant.api_key, `/v1/recommendations/${id}/apply`);
  assert.equal(applied.status, 200, JSON.stringify(applied.body));
  const policy = applied.body.policy;
  assert.equal(policy.tier_bytes, recommendation.tier_bytes);
  assert.equal(policy.eviction, recommendation.eviction, 'the recommended eviction policy, not a default');
  const report = await waitFor(`version ${policy.version} reported applied`, async () => {
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${id}/policy`);
    return body.applied_version === policy.version ? body : null;
  }, { timeoutMs: 30_000, intervalMs: 500 });
  assert.equal(report.applied_error, null);

  // 3. The same workload on the applied tier; the history measures the prediction on its warm intervals.
  const runStarted = Date.now();
  const second = await runFio(uri, AFTER_IOS, AFTER_RATE_IOPS);
  const runSeconds = (Date.now() - runStarted) / 1000;
  assert.equal(second.read.total_ios, AFTER_IOS);
  await volumeWithReads(BEFORE_IOS + AFTER_IOS);
  // The interval rows come in through their own sink after the totals: the measurement is read
  // once it has stopped growing (the same twice, 3 s apart). It is the applied prediction's, or,
  // if the window moved the prediction for the same tier meanwhile, its successor's, which goes on
  // from it (docs/analytics.md "The closed loop").
  let last = null;
  const { now, entry } = await waitFor('the measured hit ratio in the history, settled', async () => {
    const now = (await apiGet(tenant.api_key, `/v1/recommendations/${id}`)).body;
    const { body } = await apiGet(tenant.api_key, `/v1/volumes/${id}/recommendations/history`);
    const found = body.data.find((h) => h.created_at === now.created_at);
    const settled = found?.measured_hit_ratio != null && found.created_at === last?.created_at &&
      found.measured_seconds === last.measured_seconds ? { now, entry: found } : null;
    last = found;
    // Not settled yet: the history as seen goes into the timeout's message.
    if (!settled) throw new Error(`history ${JSON.stringify(body.data)}`);
    return settled;
  }, { timeoutMs: 60_000, intervalMs: 3000 });
  // 4. It stays applied: the second run did not change the workload, so no other tier replaced it
  //    (a new prediction for the same tier, if the window moved it, is applied as well).
  for (const key of ['tier_bytes', 'media', 'policy', 'eviction', 'replicas']) {
    assert.equal(now[key], recommendation[key], `${key}: replaced by ${now.explanation}`);
  }
  assert.equal(now.status, 'applied');
  assert.ok(entry.measured_seconds > 0 && entry.measured_seconds <= runSeconds + 20,
    `measured over the warm part of the second run only: ${entry.measured_seconds} s of ${runSeconds.toFixed(1)} s`);
  assert.ok(Math.abs(entry.hit_ratio_error - (entry.measured_hit_ratio - entry.predicted_hit_ratio)) < 1e-9);
  // The agent's own counters over the whole second run (cold start of the resized tier included) bound it from below.
  assert.ok(entry.measured_hit_ratio >= 0.5, `the warm tier serves the hot set: ${entry.measured_hit_ratio}`);

  // 5. The portal's recommendation page shows it applied, and the prediction's row in its history
  //    table the measured hit ratio, the time it was measured over and the error.
  const page = await browser.context.newPage();
  await page.goto(`${WEB}/login?next=/recommendations/${id}`);
  await page.getByLabel('E-mail address').fill(tenant.login_email);
  await page.getByLabel('Password').fill(tenant.login_password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${WEB}/recommendations/${id}`);
  assert.equal(await page.getByTestId('recommendation-status').textContent(), 'applied');
  const rows = await page.locator('.data-table tbody tr').allTextContents();
  const cells = [(entry.measured_hit_ratio * 100).toFixed(1), `${Math.round(entry.measured_seconds)} s`,
    `${(entry.hit_ratio_error * 100).toFixed(1)} pt`];
  assert.ok(rows.some((r) => cells.every((c) => r.includes(c))), `a history row with ${cells.join(', ')}: ${rows.join(' | ')}`);
  // The what-if control starts at the recommendation and answers for the smallest size under LRU.
  const whatIfHit = async () => (await page.getByTestId('what-if-hit-ratio').textContent()) ?? '';
  assert.ok((await whatIfHit()).includes((now.predicted_hit_ratio * 100).toFixed(1)), `what-if at the recommendation: ${await whatIfHit()}`);
  const sizes = await page.getByTestId('what-if-size').locator('option').evaluateAll((options) => options.map((o) => o.value));
  await page.getByTestId('what-if-size').selectOption(sizes[0]);
  await page.getByTestId('what-if-eviction').selectOption('lru');
  const smallest = await whatIfHit();
  assert.ok(!smallest.includes((now.predicted_hit_ratio * 100).toFixed(1)), `what-if at ${sizes[0]} bytes under LRU: ${smallest}`);

  // 6. The agent restarts with the same key: the volume's working set goes on from where it was
  //    (same window start, more references), instead of starting again.
  const before = (await apiGet(tenant.api_key, `/v1/volumes/${id}`)).body.working_set;
  agent.kill('SIGTERM');
  await once(agent, 'exit');
  agentLog.length = 0;
  await runFio(await startAgent(), RESTART_IOS);
  await volumeWithReads(BEFORE_IOS + AFTER_IOS + RESTART_IOS);
  const after = await waitFor('the working set to take the restarted agent\'s references', async () => {
    const ws = (await apiGet(tenant.api_key, `/v1/volumes/${id}`)).body.working_set;
    return ws.sampled_references > before.sampled_references ? ws : null;
  }, { timeoutMs: 30_000, intervalMs: 1000 });
  assert.equal(after.window_start, before.window_start, 'the window did not restart');
  console.log(`closed loop: ${recommendation.tier_bytes / 2 ** 20} MiB ${recommendation.eviction} predicted ` +
    `${entry.predicted_hit_ratio.toFixed(4)}, measured ${entry.measured_hit_ratio.toFixed(4)} over ` +
    `${entry.measured_seconds.toFixed(0)} s of the ${runSeconds.toFixed(1)} s run (error ${entry.hit_ratio_error.toFixed(4)}); ` +
    `fio ${Math.round(first.read.iops)} and ${Math.round(second.read.iops)} IOPS; ` +
    (now.created_at === recommendation.created_at ? 'no new prediction'
      : `a new prediction of the same tier (the one applied predicted ${recommendation.predicted_hit_ratio.toFixed(4)})`));
});
