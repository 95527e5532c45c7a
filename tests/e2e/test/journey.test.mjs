// The admin's journey in headless Chromium over the whole running stack (PostgreSQL,
// Kafka, the Flink jobs, ingest, api, notifier with the development mailbox, portal):
// sign up and confirm the address from the mail the mailbox received; on the Agents
// page take the install command with a fresh enrollment token and run it for real
// (into a scratch root, without systemd); start the installed agent so that it replays
// the CloudPhysics trace as the volume it serves and pulls that volume's policies;
// watch the fleet and volume charts fill with what the api holds; apply the
// recommendation the Flink jobs made; see the desired policy, then the agent's report
// of it applied (policy pull, docs/policies.md). The volume is served as on a host that
// has the hardware the recommendation asks for: an NVMe (file) tier larger than the
// recommended size, write-back with a journal and a running `tierwise-agent peer` for
// WB+1; it starts at a smaller tier with S3-FIFO, which the agent changes live, so the
// policy ends in sync.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchChromium, mailedLink, startPortal } from '../lib/portal.mjs';
import { alive, env, shell, startStack, TRACES, waitFor } from '../lib/stack.mjs';

const TRACE = path.join(TRACES, 'cloudphysics_w_sample.vscsi');
/** The volume a trace replays as: its file name without the extension (trace_reader's volume_name_from_path). */
const VOLUME = 'cloudphysics_w_sample';
const TRACE_IOS = 113_872; // ../shared/traces/README.md
/** The served volume's tier before the recommendation: smaller than any it makes here, and S3-FIFO. */
const START_TIER = '256MiB';
/** The tier file's size (sparse): room for the recommended tier, the journal and the staging room. */
const TIER_FILE_BYTES = 2 * 1024 ** 3;
const WEB = env('TIERWISE_WEB_URL');
const owner = { name: 'Jo Journey', organization: 'Journey Storage', email: `journey-${process.pid}-${Date.now()}@example.test`, password: 'a journey passphrase' };

let stack;
let portal;
let browser;
let page;
let work;
let agent;
let peer;
const agentLog = [];

before(async () => {
  [stack, portal] = await Promise.all([startStack(), startPortal()]);
  browser = await launchChromium();
  page = await browser.context.newPage();
  work = await mkdtemp(path.join(tmpdir(), 'tierwise-journey-'));
});

after(async () => {
  if (agent && agent.exitCode === null) {
    agent.kill('SIGTERM');
    await once(agent, 'exit');
  }
  if (peer && peer.exitCode === null) {
    peer.kill('SIGTERM');
    await once(peer, 'exit');
  }
  await browser?.close();
  await portal?.stop();
  await stack?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Clicks `button` of the form `form` and returns its next answer (the Server Action's message). */
async function submit(form, button) {
  const message = page.getByTestId(form).getByTestId('form-message');
  await page.getByTestId(form).getByRole('button', { name: button }).click();
  await message.waitFor();
  return (await message.textContent()) ?? '';
}

/** GET from the api as the signed-in admin (the portal's session cookie), as the portal does. */
async function apiAsAdmin(pathname) {
  const session = (await browser.context.cookies(WEB)).find((c) => c.name === 'tw_session').value;
  const res = await fetch(`${env('TIERWISE_API_URL')}${pathname}`, { headers: { cookie: `tw_session=${session}` } });
  assert.equal(res.status, 200, `GET ${pathname}: ${res.status}`);
  return res.json();
}

/** Waits for a chart's drawing to finish; its data-* attributes (data-points: points drawn). */
async function drawn(testId) {
  await page.waitForSelector(`[data-testid="${testId}"][data-points]`, { timeout: 30_000 });
  return page.getByTestId(testId).evaluate((el) => ({ ...el.dataset }));
}

/** Opens `pathname` and checks its IOPS and latency charts draw every point of the api's series of `scope`. */
async function chartsMatchApi(pathname, scope, range) {
  await page.goto(`${WEB}${pathname}?${new URLSearchParams(range)}`);
  const series = await apiAsAdmin(`/v1/series?${new URLSearchParams({ ...scope, ...range, width: '720' })}`);
  const ios = series.points.reduce((sum, p) => sum + (p.read_iops + p.write_iops) * series.bucket_seconds, 0);
  assert.ok(series.points.length > 0, `${pathname}: the api has points`);
  assert.ok(Math.abs(ios - TRACE_IOS) <= TRACE_IOS * 0.01, `${pathname}: the api's series add up to the trace's I/Os (${ios})`);
  for (const chart of ['iops-chart', 'latency-chart']) {
    const d = await drawn(chart);
    assert.equal(Number(d.points), series.points.length, `${pathname} ${chart}: one drawn point per api point`);
    assert.ok(d.series.split(',').every((s) => Number(s.slice(s.lastIndexOf(':') + 1)) > 0), `${pathname} ${chart}: every line drawn (${d.series})`);
  }
  return series.points.length;
}

test('sign up, install an agent, replay a trace, watch the charts, apply the recommendation, see it applied', { timeout: 600_000 }, async () => {
  const started = Date.now();

  // 1. Sign up; the confirmation link comes through the notifier and the mailbox.
  await page.goto(`${WEB}/signup`);
  await page.getByLabel('Your name').fill(owner.name);
  await page.getByLabel('Organization').fill(owner.organization);
  await page.getByLabel('E-mail address').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  assert.match(await submit('signup-form', 'Create account'), /we mailed a link/);
  await page.goto(await mailedLink(portal.mailDir, owner.email, '/verify-email'));
  assert.match(await submit('verify-form', 'Confirm my address'), /Your address is confirmed/);
  await page.goto(`${WEB}/login?next=/agents`);
  await page.getByLabel('E-mail address').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${WEB}/agents`);

  // 2. The install command with a fresh token, run as shown (without sudo: --root makes it unprivileged).
  await page.getByTestId('enroll-form').getByRole('button', { name: 'Get an install command' }).click();
  const command = await page.getByTestId('revealed-secret').inputValue();
  assert.match(command, /^curl -fsSL \S+\/install\.sh \| sudo sh -s -- --token \S+$/);
  const root = path.join(work, 'root');
  const install = await shell(`${command.replace('| sudo sh', '| sh')} --root '${root}' --no-systemd`);
  assert.equal(install.code, 0, install.stderr);

  // 3. The installed agent, restarted with a volume named as the trace: it replays the trace
  //    as that volume, then serves it and pulls its policies.
  const pidFile = path.join(root, 'run/tierwise/tierwise-agent.pid');
  const installedPid = Number(await readFile(pidFile, 'utf8'));
  process.kill(installedPid, 'SIGTERM');
  await waitFor('the installed agent to stop', async () => !(await alive(installedPid)), { timeoutMs: 30_000 });
  //    The host's hardware: a 2 GiB NVMe tier file (sparse) and a peer for WB+1.
  const installed = path.join(root, 'opt/tierwise/bin/tierwise-agent');
  const portFile = path.join(work, 'peer.port');
  peer = spawn(installed, ['peer', '--listen', '127.0.0.1:0', '--port-file', portFile], { stdio: 'ignore' });
  const peerPort = await waitFor('the peer to listen', async () => (await readFile(portFile, 'utf8').catch(() => '')).trim() || null, { timeoutMs: 10_000, intervalMs: 100 });
  const tierFile = path.join(root, `var/lib/tierwise/${VOLUME}.tier`);
  await writeFile(tierFile, '');
  await truncate(tierFile, TIER_FILE_BYTES);
  const config = path.join(root, 'etc/tierwise/agent.yaml');
  const yaml = (await readFile(config, 'utf8'))
    .replace(/^send_names: false$/m, 'send_names: true')
    .replace(/^health_interval_seconds: 60$/m, 'health_interval_seconds: 2')
    .replace(/^volumes: \[\]$/m, `volumes:\n  - {name: ${VOLUME}, datastore: ${root}/var/lib/tierwise/${VOLUME}.img, size: 1GiB, ` +
      `tier: {file: ${tierFile}, size: ${START_TIER}}, policy: s3fifo, mode: write-back, journal_entries: 1024, peers: ["127.0.0.1:${peerPort}"]}`);
  await writeFile(config, yaml);
  agent = spawn(installed, ['run', '--config', config, '--replay', TRACE], { stdio: ['ignore', 'ignore', 'pipe'] });
  agent.stderr.on('data', (chunk) => agentLog.push(chunk.toString()));
  await waitFor('the agent to replay the trace and serve its volume', async () => {
    assert.equal(agent.exitCode, null, `the agent exited:\n${agentLog.join('')}`);
    return agentLog.join('').includes('serving 1 volume(s)');
  }, { timeoutMs: 180_000 });

  // The Agents page shows it reporting, with its volume.
  const cells = await waitFor('the agent reporting its volume on the Agents page', async () => {
    await page.reload();
    const row = await page.getByTestId('agent-row').first().locator('td').allTextContents();
    return row[6] === '1' ? row : null; // Agent, Health, Last report, Last telemetry, Version, Uptime, Volumes
  }, { timeoutMs: 30_000, intervalMs: 1000 });
  assert.equal(cells[1], 'reporting', cells.join(' | '));

  // 4. The volume reaches the api with every I/O of the trace, its working set and a recommendation.
  const volume = await waitFor('the volume with its recommendation in the api', async () => {
    const list = await apiAsAdmin('/v1/volumes');
    const v = list.data.find((x) => x.display_name === VOLUME);
    if (!v) return null;
    const detail = await apiAsAdmin(`/v1/volumes/${v.volume_id}`);
    return detail.io.read_ops + detail.io.write_ops === TRACE_IOS && detail.recommendation ? detail : null;
  }, { timeoutMs: 240_000, intervalMs: 2000 });
  const range = {
    from: new Date(Date.parse(volume.io.first_interval) - 60_000).toISOString(),
    to: new Date(Date.parse(volume.io.last_interval) + 60_000).toISOString(),
  };
  const fleetPoints = await chartsMatchApi('/fleet', { scope: 'tenant' }, range);
  const volumePoints = await chartsMatchApi(`/volumes/${volume.volume_id}`, { scope: 'volume', scope_id: volume.volume_id }, range);

  // 5. Apply the recommendation.
  await page.goto(`${WEB}/recommendations/${volume.volume_id}`);
  assert.equal(await page.getByTestId('recommendation-status').textContent(), 'open');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByTestId('recommendation-status').filter({ hasText: 'applied' }).waitFor({ timeout: 30_000 });
  const desired = (await page.getByTestId('policy-desired').textContent()) ?? '';
  assert.match(desired, /^v1: /);

  // 6. The agent pulls the policy, changes the tier size and the eviction policy live (the mode
  //    too when it differs) and reports it applied with no problem: the page shows it in sync.
  const applied = await waitFor('the policy applied by the agent on the page', async () => {
    await page.reload();
    const text = (await page.getByTestId('policy-applied').textContent()) ?? '';
    return /^v1 at /.test(text) ? text : null;
  }, { timeoutMs: 60_000, intervalMs: 1000 });
  const policy = await apiAsAdmin(`/v1/volumes/${volume.volume_id}/policy`);
  assert.equal(policy.media, 'nvme', 'the recommendation is for the NVMe tier this host has');
  const logged = await waitFor('the agent to log the policy it applied', async () => agentLog.join('').match(new RegExp(`volume ${VOLUME}: policy .* applied(?: with problems: (.*))?\\n`)), { timeoutMs: 10_000 });
  assert.equal(logged[1], undefined, `the agent applied all of it: ${logged[0]}`);
  assert.ok(applied.endsWith('(in sync)'), `${applied} vs the agent's log: ${logged[0]}`);
  const mib = policy.tier_bytes / 2 ** 20;
  const eviction = policy.eviction.replace('-', ''); // the api's s3-fifo is the agent's s3fifo
  const copies = policy.mode === 'write-back' ? `WB\\+${policy.write_back_copies}` : 'WT';
  assert.match(logged[0], new RegExp(`policy ${copies}, NVMe tier ${mib} MiB, ${eviction} \\(version 1\\) applied\\n`));
  // What changed live, in the agent's words: the tier from 256 MiB, and the eviction from S3-FIFO.
  const changed = agentLog.join('').match(new RegExp(`volume ${VOLUME}: changed live: (.*)\\n`));
  assert.ok(changed, `the agent logs what it changed live:\n${agentLog.join('').slice(-2000)}`);
  if (mib !== 256) assert.match(changed[1], new RegExp(`tier 256 MiB -> ${mib} MiB`));
  if (eviction !== 's3fifo') assert.match(changed[1], new RegExp(`eviction s3fifo -> ${eviction}`));
  // The api says the same: version 1 applied, no error, in sync.
  assert.equal(policy.applied_version, 1);
  assert.equal(policy.applied_error, null);
  assert.equal(policy.in_sync, true);
  // The agent's health reports the tier it runs now (the Agents page's "of ..."), not agent.yaml's.
  await waitFor('the agent health to report the applied tier size', async () => {
    const agents = await apiAsAdmin('/v1/agents?status=all');
    return agents.data.some((a) => a.health.tier_capacity_bytes === policy.tier_bytes);
  }, { timeoutMs: 15_000 });
  // The volume page shows it beside the desired policy.
  await page.goto(`${WEB}/volumes/${volume.volume_id}`);
  assert.match((await page.getByTestId('policy-applied').textContent()) ?? '', /^version 1 in effect/);

  console.log(`journey: ${fleetPoints} fleet and ${volumePoints} volume points drawn; ` +
    `recommended ${volume.recommendation.tier_bytes} bytes ${volume.recommendation.media}; applied live: ${changed[1]}; ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
